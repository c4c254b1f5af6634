import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

export interface TwoFactorRow {
  secret: string | null;
  pending_secret: string | null;
  enabled: boolean;
  /** bigint as text; null when no step was used yet. */
  last_used_step: string | null;
}

/**
 * `two_factor_settings` and `two_factor_recovery_codes` (CONTRACT §20). Every use of a code is one
 * conditional statement, so two requests with the same code cannot both win: a TOTP step is
 * claimed only above the account's last used one, a recovery code only while unused.
 */
@Injectable()
export class TwoFactorRepository {
  constructor(private readonly uow: UnitOfWork) {}

  find(accountId: string): Promise<TwoFactorRow | undefined> {
    return this.uow.one<TwoFactorRow>(
      `SELECT secret, pending_secret, enabled_at IS NOT NULL AS enabled, last_used_step::text AS last_used_step
         FROM two_factor_settings WHERE account_id = $1`,
      [accountId],
    );
  }

  async isEnabled(accountId: string): Promise<boolean> {
    const row = await this.uow.one<{ on: boolean }>('SELECT true AS on FROM two_factor_settings WHERE account_id = $1 AND enabled_at IS NOT NULL', [accountId]);
    return row !== undefined;
  }

  /** Stores a new pending secret (replacing an unconfirmed one); false when two-factor is on already. */
  async setPending(accountId: string, secret: string): Promise<boolean> {
    const rows = await this.uow.query(
      `INSERT INTO two_factor_settings (account_id, pending_secret) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET pending_secret = excluded.pending_secret, updated_at = now()
        WHERE two_factor_settings.enabled_at IS NULL
       RETURNING 1`,
      [accountId, secret],
    );
    return rows.length === 1;
  }

  /**
   * Puts the pending secret `secret` in force, its verified `step` counted as used; false when the
   * pending secret changed or two-factor was turned on meanwhile.
   */
  async enable(accountId: string, secret: string, step: number): Promise<boolean> {
    const rows = await this.uow.query(
      `UPDATE two_factor_settings
          SET secret = pending_secret, pending_secret = NULL, enabled_at = now(), updated_at = now(),
              last_used_step = greatest(coalesce(last_used_step, 0), $3::bigint)
        WHERE account_id = $1 AND enabled_at IS NULL AND pending_secret = $2
          AND (last_used_step IS NULL OR last_used_step < $3::bigint)
       RETURNING 1`,
      [accountId, secret, step],
    );
    return rows.length === 1;
  }

  /** Claims TOTP `step` of the account's secret in force: true only when it is above every step used before. */
  async claimStep(accountId: string, secret: string, step: number): Promise<boolean> {
    const rows = await this.uow.query(
      `UPDATE two_factor_settings SET last_used_step = $3::bigint, updated_at = now()
        WHERE account_id = $1 AND enabled_at IS NOT NULL AND secret = $2
          AND (last_used_step IS NULL OR last_used_step < $3::bigint)
       RETURNING 1`,
      [accountId, secret, step],
    );
    return rows.length === 1;
  }

  /** Uses an unused recovery code of an account with two-factor on, once. */
  async useRecoveryCode(accountId: string, codeHash: Buffer): Promise<boolean> {
    const rows = await this.uow.query(
      `UPDATE two_factor_recovery_codes c SET used_at = now()
         FROM two_factor_settings s
        WHERE c.account_id = $1 AND c.code_hash = $2 AND c.used_at IS NULL
          AND s.account_id = c.account_id AND s.enabled_at IS NOT NULL
       RETURNING 1`,
      [accountId, codeHash],
    );
    return rows.length === 1;
  }

  /** The account's recovery codes become these (inside the enabling transaction). */
  async replaceRecoveryCodes(accountId: string, codeHashes: Buffer[]): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query('DELETE FROM two_factor_recovery_codes WHERE account_id = $1', [accountId]);
    await this.uow.query(
      `INSERT INTO two_factor_recovery_codes (account_id, code_hash) SELECT $1, unnest($2::bytea[])`,
      [accountId, codeHashes],
    );
  }

  /** Turns two-factor off: the secret and the recovery codes go; false when it was off. */
  async disable(accountId: string): Promise<boolean> {
    this.uow.requireTransaction();
    const rows = await this.uow.query(
      `UPDATE two_factor_settings SET secret = NULL, pending_secret = NULL, enabled_at = NULL, updated_at = now()
        WHERE account_id = $1 AND enabled_at IS NOT NULL RETURNING 1`,
      [accountId],
    );
    if (rows.length === 0) return false;
    await this.uow.query('DELETE FROM two_factor_recovery_codes WHERE account_id = $1', [accountId]);
    return true;
  }
}
