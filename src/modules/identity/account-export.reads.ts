import type { UnitOfWork } from '../../database/unit-of-work';

/** The account as its owner's data export shows it (CONTRACT §20): never the password hash. */
export interface AccountExport {
  id: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
  isAdmin: boolean;
  createdAt: Date;
  bannedAt: Date | null;
}

/** The player profile as the export shows it (CONTRACT §20). */
export interface PlayerExport {
  id: string;
  displayName: string;
  initials: string | null;
  xp: number;
  createdAt: Date;
}

/** A login session as the export shows it (CONTRACT §20): never its token hash. */
export interface LoginSessionExport {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date | null;
  userAgent: string | null;
}

/** The export's `account` part (CONTRACT §20). */
export function accountExport(uow: UnitOfWork, accountId: string): Promise<AccountExport | undefined> {
  return uow.one<AccountExport>(
    `SELECT id, email, display_name AS "displayName", email_verified_at IS NOT NULL AS "emailVerified", is_admin AS "isAdmin",
            created_at AS "createdAt", banned_at AS "bannedAt"
       FROM accounts WHERE id = $1 AND erased_at IS NULL`,
    [accountId],
  );
}

/** The export's `player` part (CONTRACT §20), or null when the account has no player. */
export async function playerExport(uow: UnitOfWork, accountId: string): Promise<PlayerExport | null> {
  const row = await uow.one<PlayerExport>(
    'SELECT id, display_name AS "displayName", initials, xp, created_at AS "createdAt" FROM players WHERE account_id = $1',
    [accountId],
  );
  return row ?? null;
}

/** The export's `loginSessions` part (CONTRACT §20): every login session still stored, newest first. */
export function loginSessionsExport(uow: UnitOfWork, accountId: string): Promise<LoginSessionExport[]> {
  return uow.query<LoginSessionExport>(
    `SELECT id, created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt", last_seen_at AS "lastSeenAt", user_agent AS "userAgent"
       FROM login_sessions WHERE account_id = $1 ORDER BY created_at DESC, id`,
    [accountId],
  );
}
