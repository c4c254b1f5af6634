import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { likeLiteral, searchPlannedWithValues } from '../../database/search';
import { isUuid } from '../../database/uuid';
import { isUniqueViolation } from '../../errors/database-errors';
import { EmailTakenError } from './identity.errors';

export interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  display_name: string;
  email_verified: boolean;
  is_admin: boolean;
  banned: boolean;
}

/** An account with what its roles and /api/me need. */
export interface AccountViewRow {
  id: string;
  email: string;
  display_name: string;
  email_verified: boolean;
  is_admin: boolean;
  player_id: string | null;
  developer_id: string | null;
  xp: number | null;
  initials: string | null;
}

/** An account as the admin console lists it (and /api/me reads its balance): the view plus balance, ban and wallet freeze. */
export interface AdminAccountRow extends AccountViewRow {
  balance: number | null;
  banned_at: Date | null;
  wallet_frozen_at: Date | null;
}

const VIEW = `
  SELECT a.id, a.email, a.display_name, a.email_verified_at IS NOT NULL AS email_verified, a.is_admin,
         p.id AS player_id, d.id AS developer_id, p.xp, p.initials
    FROM accounts a
    LEFT JOIN players p ON p.account_id = a.id
    LEFT JOIN developers d ON d.account_id = a.id`;

const ADMIN_VIEW = `
  SELECT a.id, a.email, a.display_name, a.email_verified_at IS NOT NULL AS email_verified, a.is_admin,
         p.id AS player_id, d.id AS developer_id, p.xp, p.initials,
         w.balance::float8 AS balance, a.banned_at, w.frozen_at AS wallet_frozen_at
    FROM accounts a
    LEFT JOIN players p ON p.account_id = a.id
    LEFT JOIN developers d ON d.account_id = a.id
    LEFT JOIN wallets w ON w.player_id = p.id`;

/** The most accounts one admin search answers (CONTRACT §18). */
export const USER_SEARCH_LIMIT = 50;

@Injectable()
export class AccountRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async insert(email: string, passwordHash: string, displayName: string, verified = false, admin = false): Promise<string> {
    try {
      const row = await this.uow.one<{ id: string }>(
        `INSERT INTO accounts (email, password_hash, display_name, email_verified_at, is_admin)
         VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN now() END, $5) RETURNING id`,
        [email, passwordHash, displayName, verified, admin],
      );
      return row!.id;
    } catch (error) {
      if (isUniqueViolation(error, 'accounts_email_key')) throw new EmailTakenError();
      throw error;
    }
  }

  /**
   * By the normalised address (normalizeEmail): stored addresses are normalised, so equality
   * decides; `lower(email) = lower($1)` is there for the unique index on lower(email) only.
   */
  findByEmail(email: string): Promise<AccountRow | undefined> {
    return this.uow.one<AccountRow>(
      `SELECT id, email, password_hash, display_name, email_verified_at IS NOT NULL AS email_verified, is_admin,
              banned_at IS NOT NULL AS banned
         FROM accounts WHERE lower(email) = lower($1) AND email = $1`,
      [email],
    );
  }

  /** Replaces a password hash, unless another sign-in replaced it in the meantime. */
  async setPasswordHash(accountId: string, previous: string, passwordHash: string): Promise<void> {
    await this.uow.query('UPDATE accounts SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [accountId, previous, passwordHash]);
  }

  async view(accountId: string): Promise<AccountViewRow | undefined> {
    if (!isUuid(accountId)) return undefined;
    return this.uow.one<AccountViewRow>(`${VIEW} WHERE a.id = $1`, [accountId]);
  }

  async adminView(accountId: string): Promise<AdminAccountRow | undefined> {
    if (!isUuid(accountId)) return undefined;
    return this.uow.one<AdminAccountRow>(`${ADMIN_VIEW} WHERE a.id = $1`, [accountId]);
  }

  /**
   * The first matches of an admin search, by e-mail: e-mail starting with `query` or display name
   * containing it, both without regard to case. Planned with the pattern (searchPlannedWithValues):
   * rare matches come from the trigram indexes, a short common pattern walks the e-mail index.
   */
  search(query: string): Promise<AdminAccountRow[]> {
    return searchPlannedWithValues<AdminAccountRow>(
      this.uow,
      `${ADMIN_VIEW}
        WHERE lower(a.email) LIKE lower($1) || '%' OR lower(a.display_name) LIKE '%' || lower($1) || '%'
        ORDER BY lower(a.email), a.id LIMIT ${USER_SEARCH_LIMIT}`,
      [likeLiteral(query)],
    );
  }

  /** Locks the account row for an admin change (verify, ban, unban); undefined for unknown ids and erased accounts. */
  async lockForModeration(accountId: string): Promise<{ id: string; email_verified: boolean; banned: boolean } | undefined> {
    this.uow.requireTransaction();
    if (!isUuid(accountId)) return undefined;
    return this.uow.one(
      'SELECT id, email_verified_at IS NOT NULL AS email_verified, banned_at IS NOT NULL AS banned FROM accounts WHERE id = $1 AND erased_at IS NULL FOR UPDATE',
      [accountId],
    );
  }

  /** Marks the e-mail verified; the first verification time is kept. */
  async markVerified(accountId: string): Promise<boolean> {
    if (!isUuid(accountId)) return false;
    const rows = await this.uow.query(
      'UPDATE accounts SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 RETURNING id',
      [accountId],
    );
    return rows.length === 1;
  }

  async setBanned(accountId: string, banned: boolean): Promise<void> {
    await this.uow.query('UPDATE accounts SET banned_at = CASE WHEN $2::boolean THEN now() END WHERE id = $1', [accountId, banned]);
  }

  async makeAdmin(accountId: string, passwordHash: string | undefined): Promise<void> {
    await this.uow.query(
      `UPDATE accounts SET is_admin = true, email_verified_at = coalesce(email_verified_at, now()),
              password_hash = coalesce($2, password_hash) WHERE id = $1`,
      [accountId, passwordHash ?? null],
    );
  }
}
