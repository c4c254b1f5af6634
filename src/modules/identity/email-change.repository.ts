import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUniqueViolation } from '../../errors/database-errors';
import { EmailTakenError } from './identity.errors';
import { purgeTokensSql, useTokenSql } from './random-token';

/** A change waiting for its link to be followed. */
export interface PendingEmailChange {
  new_email: string;
  expires_at: Date;
}

/** E-mail-change links (CONTRACT §20), by the SHA-256 of the mailed token, and the address change they confirm. */
@Injectable()
export class EmailChangeRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Stores a new link for the account (inside the caller's transaction), its older unused links
   * deleted: a newer request voids them. The account row is locked first, so two requests at once
   * leave one live link, not two.
   */
  async issue(accountId: string, newEmail: string, tokenHash: Buffer, ttlSeconds: number): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    await this.uow.query('DELETE FROM email_change_tokens WHERE account_id = $1 AND used_at IS NULL', [accountId]);
    await this.uow.query(
      `INSERT INTO email_change_tokens (token_hash, account_id, new_email, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))`,
      [tokenHash, accountId, newEmail, ttlSeconds],
    );
  }

  /** The account's live (unused, unexpired) change, if any. */
  pending(accountId: string): Promise<PendingEmailChange | undefined> {
    return this.uow.one<PendingEmailChange>(
      `SELECT new_email, expires_at FROM email_change_tokens
        WHERE account_id = $1 AND used_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 1`,
      [accountId],
    );
  }

  /** Uses a live link once (inside the caller's transaction); its account and new address, or undefined. */
  async use(tokenHash: Buffer): Promise<{ accountId: string; newEmail: string } | undefined> {
    this.uow.requireTransaction();
    const used = await this.uow.one<{ account_id: string }>(useTokenSql('email_change_tokens'), [tokenHash]);
    if (!used) return undefined;
    const row = await this.uow.one<{ new_email: string }>('SELECT new_email FROM email_change_tokens WHERE token_hash = $1', [tokenHash]);
    return { accountId: used.account_id, newEmail: row!.new_email };
  }

  /**
   * The account's new address, verified (the link proved the mailbox). The unique index on the
   * address decides a race with a sign-up or another change: 409 EMAIL_TAKEN. Unused reset links
   * went to the old address, so they end here too.
   */
  async setEmail(accountId: string, newEmail: string): Promise<void> {
    this.uow.requireTransaction();
    try {
      await this.uow.query('UPDATE accounts SET email = $2, email_verified_at = now() WHERE id = $1', [accountId, newEmail]);
    } catch (error) {
      if (isUniqueViolation(error, 'accounts_email_key')) throw new EmailTakenError();
      throw error;
    }
    await this.uow.query('DELETE FROM password_reset_tokens WHERE account_id = $1 AND used_at IS NULL', [accountId]);
  }

  /** Deletes up to `limit` links used, or expired before `now`; returns how many. */
  async purgeBatch(now: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(purgeTokensSql('email_change_tokens'), [now, limit]);
    return rows.length;
  }
}
