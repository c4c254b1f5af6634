import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { LOGIN_SESSION_TTL_SECONDS, readAuthToken } from './auth-cookie';
import { UnauthenticatedError } from '../../errors/app-error';
import { type AccountContext, isPlayer } from '../../http/account-auth';
import { AccountBannedError } from './identity.errors';
import { DeviceRow, LoginSessionRepository } from './login-session.repository';
import { hashToken, newToken, TOKEN_PATTERN } from './random-token';

/** A kept login session is read again after this long (docs/operations.md, "Scaling out"). */
const KEPT_MS = 30_000;
const KEPT_MAX = 10_000;

/** What `login_sessions.user_agent` keeps of a request's `User-Agent`: its first 200 characters, null when none (CONTRACT §20). */
export function userAgentOf(request: Pick<Request, 'headers'>): string | null {
  const header = request.headers['user-agent'];
  const value = typeof header === 'string' ? header.trim() : '';
  return value === '' ? null : Array.from(value).slice(0, 200).join('');
}

/** The newest this many live sessions are listed (a person has a handful; the rest are old sign-ins). */
const DEVICES_LISTED = 100;

/** The SHA-256 of a well-formed token; undefined for none or a malformed one (never worth a database read). */
function hashOf(token: string | undefined): Buffer | undefined {
  return token && TOKEN_PATTERN.test(token) ? hashToken(token) : undefined;
}

/** Login sessions behind the `auth_session` cookie: opaque random tokens, only their SHA-256 stored. */
@Injectable()
export class LoginSessionService {
  /**
   * Play-ready login sessions by the SHA-256 of their token (never the token), for routes whose
   * statements check the session themselves (`PlayerAuth({ sessionCheckedByStatement: true })`:
   * heartbeat, insert-coin, score): what such a route takes from it (account, player and wallet
   * ids, the session id) never changes while the session lives, and their statements refuse a
   * session that was signed out, banned or expired since, on any instance. Dropped here on a
   * sign-out or ban on this instance.
   */
  private readonly kept = new Map<string, { context: AccountContext; until: number }>();
  private readonly logger = new Logger('LoginSessions');

  constructor(private readonly sessions: LoginSessionRepository) {}

  /** Starts a login session; the token is returned once, for the cookie. A banned account gets none (403 ACCOUNT_BANNED). */
  async start(accountId: string, userAgent: string | null = null): Promise<string> {
    const token = newToken();
    if (!(await this.sessions.insert(accountId, hashToken(token), LOGIN_SESSION_TTL_SECONDS, userAgent))) throw new AccountBannedError();
    return token;
  }

  /** The account's live login sessions, newest first (CONTRACT §20 devices); `current` marks `currentId`. */
  async devices(accountId: string, currentId: string): Promise<(DeviceRow & { current: boolean })[]> {
    const rows = await this.sessions.listLive(accountId, DEVICES_LISTED);
    return rows.map((row) => ({ ...row, current: row.id === currentId }));
  }

  /**
   * Signs one device of the account out, on every instance at once (as a ban: sessions are read per
   * request, or checked by the statements of the routes that keep them). False when the account has
   * no live session by that id.
   */
  async revokeDevice(accountId: string, loginSessionId: string): Promise<boolean> {
    if (!(await this.sessions.revokeOne(accountId, loginSessionId))) return false;
    this.forgetKept((context) => context.loginSessionId === loginSessionId);
    return true;
  }

  /** Ends every login session of the account but `keepId` (sign out everywhere else, a password change), on every instance at once. */
  async revokeAllBut(accountId: string, keepId: string): Promise<void> {
    await this.sessions.revokeAllBut(accountId, keepId);
    this.forgetKept((context) => context.accountId === accountId && context.loginSessionId !== keepId);
  }

  /** Ends every login session of a banned account, on every instance at once (sessions are read per request, or checked by the statements of the routes that keep them). */
  async revokeAllOf(accountId: string): Promise<void> {
    await this.sessions.revokeAllOf(accountId);
    this.forgetKept((context) => context.accountId === accountId);
  }

  /** The signed-in account of a request's `auth_session` cookie, or undefined (no database read without a well-formed token). */
  fromRequest(request: Pick<Request, 'headers'>): Promise<AccountContext | undefined> {
    return this.resolve(readAuthToken(request));
  }

  async resolve(token: string | undefined): Promise<AccountContext | undefined> {
    const hash = hashOf(token);
    return hash && this.read(hash);
  }

  /**
   * Like `fromRequest`, from memory when this instance read the same play-ready session less than
   * 30 s ago: only for a route whose statements check the session themselves (see PlayerAuth's
   * `sessionCheckedByStatement`).
   */
  async fromRequestKept(request: Pick<Request, 'headers'>): Promise<AccountContext | undefined> {
    const hash = hashOf(readAuthToken(request));
    if (!hash) return undefined;
    const key = hash.toString('base64');
    const now = Date.now();
    const kept = this.kept.get(key);
    if (kept && kept.until > now) return kept.context;
    const context = await this.read(hash);
    if (context && context.emailVerified && isPlayer(context)) {
      if (this.kept.size >= KEPT_MAX) this.kept.clear();
      this.kept.set(key, { context: Object.freeze(context), until: now + KEPT_MS });
    } else this.kept.delete(key);
    return context;
  }

  /** After a statement that checks the session found nothing: 401 when the session is over (and forgotten here), else nothing. */
  async requireLive(context: Pick<AccountContext, 'loginSessionId'>): Promise<void> {
    if (await this.sessions.isLive(context.loginSessionId)) return;
    this.forgetKept((kept) => kept.loginSessionId === context.loginSessionId);
    throw new UnauthenticatedError('Sign in first.');
  }

  private async read(hash: Buffer): Promise<AccountContext | undefined> {
    const row = await this.sessions.resolve(hash);
    if (!row) return undefined;
    if (row.seen_stale) await this.touch(row.login_session_id);
    return {
      accountId: row.account_id,
      email: row.email,
      emailVerified: row.email_verified,
      displayName: row.display_name,
      isAdmin: row.is_admin,
      developerId: row.developer_id,
      playerId: row.player_id,
      walletId: row.wallet_id,
      walletFrozen: row.wallet_frozen,
      playerInitials: row.player_initials,
      loginSessionId: row.login_session_id,
    };
  }

  /** One batch of the retention purge: login sessions expired by `now`, or revoked. */
  purgeBatch(now: Date, limit: number): Promise<number> {
    return this.sessions.purgeBatch(now, limit);
  }

  async revoke(token: string | undefined): Promise<void> {
    const hash = hashOf(token);
    if (!hash) return;
    await this.sessions.revokeByHash(hash);
    this.kept.delete(hash.toString('base64'));
  }

  /**
   * "Last used" for the devices list, moved at most once a minute per session: only a read that found
   * it over a minute old sends the (conditional) update, so the kept play routes, which read their
   * session once per 30 s, add one write per minute per session at most. A failure is logged, never
   * answered: the request does not depend on it.
   */
  private async touch(loginSessionId: string): Promise<void> {
    try {
      await this.sessions.touch(loginSessionId);
    } catch (error) {
      this.logger.warn({ err: error, loginSessionId }, 'Could not move a login session\'s last use');
    }
  }

  private forgetKept(matches: (context: AccountContext) => boolean): void {
    for (const [key, { context }] of this.kept) if (matches(context)) this.kept.delete(key);
  }
}
