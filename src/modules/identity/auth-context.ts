/**
 * Who is calling, as the cookie authenticator resolves it from the login session. Handlers get the
 * narrowest type their route guarantees: `@CurrentPlayer()` (PlayerAuth), `@CurrentDeveloper()`
 * (DeveloperAuth), `@CurrentAdmin()` (AdminAuth), `@CurrentAccount()` (any cookie route).
 */
export interface AccountContext {
  readonly accountId: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly displayName: string;
  readonly isAdmin: boolean;
  readonly developerId: string | null;
  readonly playerId: string | null;
  readonly walletId: string | null;
  /** A dispute or an admin froze the wallet (CONTRACT §19), as read with the login session. */
  readonly walletFrozen: boolean;
  /** The player's saved high-score initials (CONTRACT §16.8), read with the login session. */
  readonly playerInitials: string | null;
  readonly loginSessionId: string;
}

/** A play-ready caller: e-mail verified, player profile and wallet linked. */
export interface PlayerContext extends AccountContext {
  readonly playerId: string;
  readonly walletId: string;
}

/** A developer: e-mail verified, role developer. */
export interface DeveloperContext extends AccountContext {
  readonly developerId: string;
}

/** An administrator. */
export interface AdminContext extends AccountContext {
  readonly isAdmin: true;
}

/** @deprecated The wide context: use AccountContext, or the typed context the route guarantees. */
export type AuthContext = AccountContext;

export function isPlayer(account: AccountContext): account is PlayerContext {
  return account.playerId !== null && account.walletId !== null;
}

export function isDeveloper(account: AccountContext): account is DeveloperContext {
  return account.developerId !== null;
}

export function isAdmin(account: AccountContext): account is AdminContext {
  return account.isAdmin;
}
