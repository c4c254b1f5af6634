import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

@Injectable()
export class EmailVerificationRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async insert(accountId: string, tokenHash: Buffer, ttlSeconds: number): Promise<void> {
    await this.uow.query(
      'INSERT INTO email_verification_tokens (token_hash, account_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))',
      [tokenHash, accountId, ttlSeconds],
    );
  }

  /** Uses a live token once; returns its account, or undefined for an unknown, used or expired token. */
  async use(tokenHash: Buffer): Promise<string | undefined> {
    const row = await this.uow.one<{ account_id: string }>(
      `UPDATE email_verification_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING account_id`,
      [tokenHash],
    );
    return row?.account_id;
  }

  /** Deletes up to `limit` tokens used, or expired before `now`; returns how many. */
  async purgeBatch(now: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(
      `DELETE FROM email_verification_tokens WHERE token_hash IN (
         SELECT token_hash FROM email_verification_tokens WHERE used_at IS NOT NULL OR expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING 1`,
      [now, limit],
    );
    return rows.length;
  }
}
