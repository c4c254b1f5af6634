import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { LOGIN_SESSION_TTL_SECONDS, readAuthToken } from './auth-cookie';
import { UnauthenticatedError } from '../../errors/app-error';
import { type AccountContext, isPlayer } from '../../http/account-auth';
import { AccountBannedError } from './identity.errors';
import { LoginSessionRepository } from './login-session.repository';

/** A kept login session is read again after this long (docs/operations.md, "Scaling out"). */
const KEPT_MS = 30_000;
const KEPT_MAX = 10_000;

/** Tokens are 32 random bytes in base64url; anything else is not worth a database read. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** The SHA-256 of a well-formed token; undefined for none or a malformed one (never worth a database read). */
function hashOf(token: string | undefined): Buffer | undefined {
  return token && TOKEN.test(token) ? hashToken(token) : undefined;
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

  constructor(private readonly sessions: LoginSessionRepository) {}

  /** Starts a login session; the token is returned once, for the cookie. A banned account gets none (403 ACCOUNT_BANNED). */
  async start(accountId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    if (!(await this.sessions.insert(accountId, hashToken(token), LOGIN_SESSION_TTL_SECONDS))) throw new AccountBannedError();
    return token;
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

  private forgetKept(matches: (context: AccountContext) => boolean): void {
    for (const [key, { context }] of this.kept) if (matches(context)) this.kept.delete(key);
  }
}
