import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { LOGIN_SESSION_TTL_SECONDS } from './auth-cookie';
import { LoginSessionRepository } from './login-session.repository';

/** Who is calling, as the cookie guards resolve it; handlers get it through `@CurrentAccount()`. */
export interface AuthContext {
  accountId: string;
  email: string;
  emailVerified: boolean;
  displayName: string;
  isAdmin: boolean;
  developerId: string | null;
  playerId: string | null;
  walletId: string | null;
  /** The player's saved high-score initials (CONTRACT §16.8), read with the login session. */
  playerInitials: string | null;
  loginSessionId: string;
}

/** Tokens are 32 random bytes in base64url; anything else is not worth a database read. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Login sessions behind the `auth_session` cookie: opaque random tokens, only their SHA-256 stored. */
@Injectable()
export class LoginSessionService {
  constructor(private readonly sessions: LoginSessionRepository) {}

  /** Starts a login session; the token is returned once, for the cookie. */
  async start(accountId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.sessions.insert(accountId, hashToken(token), LOGIN_SESSION_TTL_SECONDS);
    return token;
  }

  async resolve(token: string | undefined): Promise<AuthContext | undefined> {
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
      playerInitials: row.player_initials,
      loginSessionId: row.login_session_id,
    };
  }

  async revoke(token: string | undefined): Promise<void> {
    if (!token || !TOKEN.test(token)) return;
    await this.sessions.revokeByHash(hashToken(token));
  }
}
