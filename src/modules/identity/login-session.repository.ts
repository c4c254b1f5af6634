import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { LoginSession } from './login-session.entity';
import { liveLoginCondition, liveLoginSessionSql } from './login-state';

const IS_LIVE = `SELECT ${liveLoginSessionSql('$1')} AS live`;

/** How often a login session's `last_seen_at` moves at most (CONTRACT §20 "last use"). */
const SEEN_EVERY = `interval '1 minute'`;

const RESOLVE_SQL = `SELECT s.id AS login_session_id, a.id AS account_id, a.email, a.email_verified_at IS NOT NULL AS email_verified,
       a.display_name, a.is_admin, d.id AS developer_id, p.id AS player_id, w.id AS wallet_id, p.initials AS player_initials,
       w.frozen_at IS NOT NULL AS wallet_frozen,
       (s.last_seen_at IS NULL OR s.last_seen_at < now() - ${SEEN_EVERY}) AS seen_stale
  FROM login_sessions s
  JOIN accounts a ON a.id = s.account_id
  LEFT JOIN developers d ON d.account_id = a.id
  LEFT JOIN players p ON p.account_id = a.id
  LEFT JOIN wallets w ON w.player_id = p.id
 WHERE s.token_hash = $1 AND ${liveLoginCondition('s', 'a')}`;

export interface AuthRow {
  login_session_id: string;
  account_id: string;
  email: string;
  email_verified: boolean;
  display_name: string;
  is_admin: boolean;
  developer_id: string | null;
  player_id: string | null;
  wallet_id: string | null;
  wallet_frozen: boolean;
  player_initials: string | null;
  /** `last_seen_at` is over a minute old (or unset): `touch` it. */
  seen_stale: boolean;
}

/** A live login session of an account, for its devices list (CONTRACT §20). */
export interface DeviceRow {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  user_agent: string | null;
}

@Injectable()
export class LoginSessionRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Starts a login session unless the account is banned (undefined then). FOR SHARE waits for a ban
   * being committed on the account row and then sees it; a ban that comes after finds this session
   * and revokes it: no session of a banned account survives a race with sign-in.
   */
  async insert(accountId: string, tokenHash: Buffer, ttlSeconds: number, userAgent: string | null = null): Promise<string | undefined> {
    const row = await this.uow.one<{ id: string }>(
      `INSERT INTO login_sessions (account_id, token_hash, expires_at, user_agent)
       SELECT id, $2, now() + make_interval(secs => $3), $4 FROM accounts WHERE id = $1 AND banned_at IS NULL FOR SHARE
       RETURNING id`,
      [accountId, tokenHash, ttlSeconds, userAgent],
    );
    return row?.id;
  }

  /** One indexed read per request (three play routes keep it: login-state.ts): the live login session with everything the guards check. */
  resolve(tokenHash: Buffer): Promise<AuthRow | undefined> {
    return this.uow.one<AuthRow>(RESOLVE_SQL, [tokenHash]);
  }

  /**
   * Moves `last_seen_at` to now unless another request did less than a minute ago: at most one
   * write a minute per session, sent only when the session's read found it stale.
   */
  async touch(loginSessionId: string): Promise<void> {
    await this.uow.query(
      `UPDATE login_sessions SET last_seen_at = now() WHERE id = $1 AND (last_seen_at IS NULL OR last_seen_at < now() - ${SEEN_EVERY})`,
      [loginSessionId],
    );
  }

  /** The account's live login sessions, newest first (at most `limit`). */
  listLive(accountId: string, limit: number): Promise<DeviceRow[]> {
    return this.uow.query<DeviceRow>(
      `SELECT s.id, s.created_at, COALESCE(s.last_seen_at, s.created_at) AS last_seen_at, s.user_agent
         FROM login_sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.account_id = $1 AND ${liveLoginCondition('s', 'a')}
        ORDER BY s.created_at DESC, s.id DESC
        LIMIT $2`,
      [accountId, limit],
    );
  }

  /** Revokes one live login session of the account; false when it has none by that id (another account's, unknown, revoked or expired). */
  async revokeOne(accountId: string, loginSessionId: string): Promise<boolean> {
    if (!isUuid(loginSessionId)) return false;
    const rows = await this.uow.query(
      'UPDATE login_sessions SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING id',
      [loginSessionId, accountId],
    );
    return rows.length > 0;
  }

  /** Revokes every live login session of the account but `keepId`; returns how many. */
  async revokeAllBut(accountId: string, keepId: string): Promise<number> {
    const rows = await this.uow.query('UPDATE login_sessions SET revoked_at = now() WHERE account_id = $1 AND id <> $2 AND revoked_at IS NULL RETURNING id', [
      accountId,
      keepId,
    ]);
    return rows.length;
  }

  /** Whether the login session is live (see liveLoginSessionSql). */
  async isLive(loginSessionId: string): Promise<boolean> {
    const row = await this.uow.one<{ live: boolean }>(IS_LIVE, [loginSessionId]);
    return row?.live === true;
  }

  /** Revokes every live login session of the account (a ban): for good, a later unban revives none. */
  async revokeAllOf(accountId: string): Promise<number> {
    const rows = await this.uow.query('UPDATE login_sessions SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL RETURNING id', [accountId]);
    return rows.length;
  }

  async revokeByHash(tokenHash: Buffer): Promise<void> {
    await this.uow.manager.getRepository(LoginSession).update({ tokenHash, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
  }

  /** Deletes up to `limit` login sessions that expired before `now` or were revoked; returns how many. */
  async purgeBatch(now: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(
      `DELETE FROM login_sessions WHERE id IN (
         SELECT id FROM login_sessions WHERE expires_at < $1 OR revoked_at IS NOT NULL LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING 1`,
      [now, limit],
    );
    return rows.length;
  }
}
