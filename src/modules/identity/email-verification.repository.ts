import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { purgeTokensSql, useTokenSql } from './random-token';

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
      useTokenSql('email_verification_tokens'),
      [tokenHash],
    );
    return row?.account_id;
  }

  /** Deletes up to `limit` tokens used, or expired before `now`; returns how many. */
  async purgeBatch(now: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(
      purgeTokensSql('email_verification_tokens'),
      [now, limit],
    );
    return rows.length;
  }
}
