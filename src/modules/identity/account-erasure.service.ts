import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AccountContext } from '../../http/account-auth';
import { AccountSettingsService } from './account-settings.service';
import { LoginSessionService } from './login-session.service';

/** What account erasure needs to know of the account before it starts (CONTRACT §20). */
export interface ErasableAccount {
  id: string;
  isAdmin: boolean;
  playerId: string | null;
}

/**
 * Identity's part of account erasure (CONTRACT §20, POST /api/me/delete): the current password
 * proved as for a password change, then, inside the erasure's transaction, the account row keeps
 * its id (money and moderation records name it) and loses everything personal: e-mail, display
 * name and password hash NULL, `erased_at` set (accounts_erased_fields). Its login sessions,
 * pending links (verification, reset, e-mail change), two-factor secret, recovery codes and
 * sign-in challenges go; the player profile's display name becomes a neutral one (its id, XP and
 * initials stay, so boards and PlayerRefs do not change).
 */
@Injectable()
export class AccountErasureService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: AccountSettingsService,
    private readonly loginSessions: LoginSessionService,
  ) {}

  /** 403 WRONG_PASSWORD (counted as a failed login) unless `currentPassword` is the account's. */
  async proveCurrentPassword(auth: AccountContext, currentPassword: string): Promise<void> {
    await this.settings.proveCurrentPassword(auth, currentPassword);
  }

  /** Locks the live account row for its erasure; undefined when it is gone or erased already. */
  async lockForErasure(accountId: string): Promise<ErasableAccount | undefined> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ id: string; is_admin: boolean; player_id: string | null }>(
      `SELECT a.id, a.is_admin, (SELECT p.id FROM players p WHERE p.account_id = a.id) AS player_id
         FROM accounts a WHERE a.id = $1 AND a.erased_at IS NULL FOR UPDATE`,
      [accountId],
    );
    return row && { id: row.id, isAdmin: row.is_admin, playerId: row.player_id };
  }

  /** Erases identity's data of a locked account (lockForErasure), in the caller's transaction. */
  async erase(accountId: string): Promise<void> {
    this.uow.requireTransaction();
    // Ends the sessions on every instance (and forgets the ones kept here), then removes them.
    await this.loginSessions.revokeAllOf(accountId);
    await this.uow.query('DELETE FROM login_sessions WHERE account_id = $1', [accountId]);
    await this.uow.query('DELETE FROM email_verification_tokens WHERE account_id = $1', [accountId]);
    await this.uow.query('DELETE FROM password_reset_tokens WHERE account_id = $1', [accountId]);
    await this.uow.query('DELETE FROM email_change_tokens WHERE account_id = $1', [accountId]);
    await this.uow.query('DELETE FROM login_challenges WHERE account_id = $1', [accountId]);
    await this.uow.query('DELETE FROM two_factor_recovery_codes WHERE account_id = $1', [accountId]);
    await this.uow.query(
      `UPDATE two_factor_settings SET secret = NULL, pending_secret = NULL, enabled_at = NULL, last_used_step = NULL, updated_at = now()
        WHERE account_id = $1`,
      [accountId],
    );
    await this.uow.query(`UPDATE players SET display_name = 'Erased player' WHERE account_id = $1`, [accountId]);
    await this.uow.query(
      'UPDATE accounts SET erased_at = now(), email = NULL, display_name = NULL, password_hash = NULL, email_verified_at = NULL WHERE id = $1',
      [accountId],
    );
  }
}
