import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { LOGIN_SESSION_TTL_SECONDS, readAuthToken } from './auth-cookie';
import type { AccountContext } from '../../http/account-auth';
import { AccountBannedError } from './identity.errors';
import { LoginSessionRepository } from './login-session.repository';

/** Tokens are 32 random bytes in base64url; anything else is not worth a database read. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Login sessions behind the `auth_session` cookie: opaque random tokens, only their SHA-256 stored. */
@Injectable()
export class LoginSessionService {
  constructor(private readonly sessions: LoginSessionRepository) {}

  /** Starts a login session; the token is returned once, for the cookie. A banned account gets none (403 ACCOUNT_BANNED). */
  async start(accountId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    if (!(await this.sessions.insert(accountId, hashToken(token), LOGIN_SESSION_TTL_SECONDS))) throw new AccountBannedError();
    return token;
  }

  /** Ends every login session of a banned account, on every instance at once (sessions are read per request). */
  async revokeAllOf(accountId: string): Promise<void> {
    await this.sessions.revokeAllOf(accountId);
  }

  /** The signed-in account of a request's `auth_session` cookie, or undefined (no database read without a well-formed token). */
  fromRequest(request: Pick<Request, 'headers'>): Promise<AccountContext | undefined> {
    return this.resolve(readAuthToken(request));
  }

  async resolve(token: string | undefined): Promise<AccountContext | undefined> {
    if (!token || !TOKEN.test(token)) return undefined;
    const row = await this.sessions.resolve(hashToken(token));
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
    if (!token || !TOKEN.test(token)) return;
    await this.sessions.revokeByHash(hashToken(token));
  }
}
