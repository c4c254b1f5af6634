import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { purgeTokensSql, useTokenSql } from './random-token';

/** Password-reset tokens (CONTRACT §20), by the SHA-256 of the mailed token. */
@Injectable()
export class PasswordResetRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * The same statement and the same writes whether or not an account has the e-mail (CONTRACT
   * §20: nothing in the timing tells them apart): the token is stored either way, with the
   * account when one has the e-mail (its older unused tokens deleted: a newer link voids them),
   * else with none, a decoy no link can use that the retention purge deletes once expired.
   * Returns whether an account has the e-mail.
   */
  async issue(email: string, tokenHash: Buffer, ttlSeconds: number): Promise<boolean> {
    const row = await this.uow.one<{ account_id: string | null }>(
      `WITH account AS (SELECT id FROM accounts WHERE lower(email) = lower($1::text) AND email = $1::text),
            voided AS (DELETE FROM password_reset_tokens WHERE account_id IN (SELECT id FROM account) AND used_at IS NULL)
       INSERT INTO password_reset_tokens (token_hash, account_id, expires_at)
       VALUES ($2::bytea, (SELECT id FROM account), now() + make_interval(secs => $3::double precision)) RETURNING account_id`,
      [email, tokenHash, ttlSeconds],
    );
    return row?.account_id != null;
  }

  /** A live token's account and e-mail, and whether it is banned; undefined for an unknown, used or expired token. */
  find(tokenHash: Buffer): Promise<{ account_id: string; email: string; banned: boolean } | undefined> {
    return this.uow.one(
      `SELECT t.account_id, a.email, a.banned_at IS NOT NULL AS banned
         FROM password_reset_tokens t JOIN accounts a ON a.id = t.account_id
        WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > now()`,
      [tokenHash],
    );
  }

  /** Uses a live token once (inside the caller's transaction); returns its account, or undefined. */
  async use(tokenHash: Buffer): Promise<string | undefined> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ account_id: string }>(
      useTokenSql('password_reset_tokens'),
      [tokenHash],
    );
    return row?.account_id;
  }

  /**
   * The new password of a reset, and the e-mail counted as verified (the link proved the
   * mailbox); false when the account is banned (nothing changes).
   */
  async setPassword(accountId: string, passwordHash: string): Promise<boolean> {
    const rows = await this.uow.query(
      `UPDATE accounts SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now())
        WHERE id = $1 AND banned_at IS NULL RETURNING id`,
      [accountId, passwordHash],
    );
    return rows.length === 1;
  }

  /** Deletes up to `limit` tokens used, or expired before `now`; returns how many. */
  async purgeBatch(now: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(
      purgeTokensSql('password_reset_tokens'),
      [now, limit],
    );
    return rows.length;
  }
}
