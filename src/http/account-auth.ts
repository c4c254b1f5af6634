/**
 * Cookie (account) authentication as every module's routes declare it: the contexts a handler
 * receives, the composite route decorators (`PlayerAuth()`, `AdminAuth()`, ...) and the typed
 * parameter decorators (`@CurrentPlayer()`, ...). Framework layer: any module uses it without
 * importing identity. Identity provides the `AccountAuthenticator` that checks the requirement
 * against the login session (identity/cookie.authenticator.ts); the global AuthGuard runs it.
 */
import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiCookieAuth, ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ERROR_SCHEMA_REF } from './error-responses';
import { COOKIE_SECURITY } from './openapi';
import { AUTH_KIND, CROSS_ORIGIN_DOC } from './public.decorator';
import { AuthRequirement, authParam, RouteAuthenticator } from './route-auth';

export { PublicSameOrigin } from './public.decorator';

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

/**
 * The player of a route that trusts a kept login session (PlayerAuth({ sessionCheckedByStatement:
 * true })): only the four fields that never change while the login session lives. Whatever else
 * it needs (a freeze, saved initials, whether the login is still live) its statement reads.
 */
export type KeptLoginPlayer = Pick<PlayerContext, 'accountId' | 'playerId' | 'walletId' | 'loginSessionId'>;

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

/** What a cookie-authenticated route requires, set by the composite decorators below. */
export interface CookieAuthRequirement extends AuthRequirement {
  /** `optional`: a public route that reads the caller when there is one (`@OptionalAccount()`), never refusing. */
  readonly kind: 'signed-in' | 'player' | 'developer' | 'admin' | 'optional';
  readonly emailVerified: boolean;
  /** PlayerAuth({ sessionCheckedByStatement: true }): see there. */
  readonly sessionCheckedByStatement?: boolean;
}

export type AuthenticatedRequest = Request & { auth?: AccountContext };

/**
 * The provider token of cookie authentication: identity registers its implementation under it, so
 * the route decorators here name no class of identity.
 */
export abstract class AccountAuthenticator implements RouteAuthenticator<CookieAuthRequirement> {
  abstract authenticate(request: AuthenticatedRequest, requirement: CookieAuthRequirement): Promise<void>;

  /** The signed-in account of a request, or undefined (no cookie, unknown, expired or revoked): HTML pages decide for themselves. */
  abstract currentAccount(request: Request): Promise<AccountContext | undefined>;

  /** Whether an admin may use the admin console now (CONTRACT §20: with ADMIN_REQUIRE_2FA, only with two-factor on). */
  abstract adminAllowed(account: AccountContext): Promise<boolean>;
}

function cookieAuth(kind: CookieAuthRequirement['kind'], emailVerified: boolean, forbidden: string[], sessionCheckedByStatement = false) {
  const requirement: CookieAuthRequirement = { kind, emailVerified, authenticator: AccountAuthenticator, sessionCheckedByStatement };
  return applyDecorators(
    SetMetadata(AUTH_KIND, requirement),
    ApiCookieAuth(COOKIE_SECURITY),
    ApiResponse({ status: 401, description: 'UNAUTHENTICATED: not signed in', schema: ERROR_SCHEMA_REF }),
    ApiResponse({ status: 403, description: [CROSS_ORIGIN_DOC, ...forbidden].join('; '), schema: ERROR_SCHEMA_REF }),
  );
}

/** Any signed-in account; `emailVerified: true` also requires a verified e-mail (403 EMAIL_NOT_VERIFIED). Read it with `@CurrentAccount()`. */
export function SignedIn(options: { emailVerified?: boolean } = {}) {
  const emailVerified = options.emailVerified ?? false;
  return cookieAuth('signed-in', emailVerified, emailVerified ? ['EMAIL_NOT_VERIFIED: verify your e-mail first'] : []);
}

/**
 * A play-ready player: signed in, e-mail verified, player profile linked. Read it with `@CurrentPlayer()`.
 *
 * `sessionCheckedByStatement: true` lets the instance answer from a login session it read less
 * than 30 s ago instead of reading it again (issue 20: one round trip fewer for heartbeat,
 * insert-coin and score). Only for a route whose handler (1) uses nothing of the context but
 * `accountId`, `playerId`, `walletId` and `loginSessionId`, which never change while the session
 * lives, and (2) answers 401 for a session signed out, banned or expired since, checked by the
 * database in its own statements: `liveLoginSessionSql` in the WHERE clause of an update, then
 * `LoginSessionService.requireLive` when it matched nothing (heartbeat), or `withLoginState`
 * around its first statement (insert-coin and score, which take the wallet's freeze and the saved
 * initials from there too).
 */
export function PlayerAuth(options: { sessionCheckedByStatement?: boolean } = {}) {
  return cookieAuth(
    'player',
    true,
    ['EMAIL_NOT_VERIFIED: verify your e-mail first', 'ACCOUNT_NOT_LINKED: the account has no player profile'],
    options.sessionCheckedByStatement ?? false,
  );
}

/** A developer: signed in, e-mail verified, role developer. Read it with `@CurrentDeveloper()`. */
export function DeveloperAuth() {
  return cookieAuth('developer', true, [
    'EMAIL_NOT_VERIFIED: verify your e-mail first',
    'FORBIDDEN: the account is not a developer',
  ]);
}

/** An administrator. Read it with `@CurrentAdmin()`. */
export function AdminAuth() {
  return cookieAuth('admin', false, [
    'FORBIDDEN: the account is not an administrator',
    'TWO_FACTOR_REQUIRED: with `ADMIN_REQUIRE_2FA=true`, the administrator has not turned two-factor authentication on',
  ]);
}

const COOKIE_KINDS = ['signed-in', 'player', 'developer', 'admin'] as const;

/** Never reached once start-up has checked the routes; a 500 rather than a silent undefined. */
function misused(decorator: string): Error {
  return new Error(`${decorator} found no matching caller on the request: check the route's auth decorator.`);
}

function signedInAccount(context: ExecutionContext): AccountContext | undefined {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
}

/** The signed-in caller of any cookie-authenticated route (`SignedIn()`, `PlayerAuth()`, `DeveloperAuth()`, `AdminAuth()`). */
export const CurrentAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AccountContext => {
    const account = signedInAccount(context);
    if (!account) throw misused('@CurrentAccount()');
    return account;
  },
  [authParam({ decorator: '@CurrentAccount()', kinds: COOKIE_KINDS })],
);

/** The play-ready caller of a `PlayerAuth()` route: `playerId` and `walletId` are set. */
export const CurrentPlayer = createParamDecorator(
  (_data: unknown, context: ExecutionContext): PlayerContext => {
    const account = signedInAccount(context);
    if (!account || !isPlayer(account)) throw misused('@CurrentPlayer()');
    return account;
  },
  [authParam({ decorator: '@CurrentPlayer()', kinds: ['player'] })],
);

/** The caller of a `DeveloperAuth()` route: `developerId` is set. */
export const CurrentDeveloper = createParamDecorator(
  (_data: unknown, context: ExecutionContext): DeveloperContext => {
    const account = signedInAccount(context);
    if (!account || !isDeveloper(account)) throw misused('@CurrentDeveloper()');
    return account;
  },
  [authParam({ decorator: '@CurrentDeveloper()', kinds: ['developer'] })],
);

/** The caller of an `AdminAuth()` route. */
export const CurrentAdmin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AdminContext => {
    const account = signedInAccount(context);
    if (!account || !isAdmin(account)) throw misused('@CurrentAdmin()');
    return account;
  },
  [authParam({ decorator: '@CurrentAdmin()', kinds: ['admin'] })],
);

const OPTIONAL: CookieAuthRequirement = { kind: 'optional', emailVerified: false, authenticator: AccountAuthenticator };

/**
 * On a `@Public()` route (HTML pages, the public game): the signed-in account, or undefined for a
 * signed-out visitor or a bad cookie. Never refuses; the page decides (redirect, 404, ...).
 */
export const OptionalAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AccountContext | undefined => signedInAccount(context),
  [authParam({ decorator: '@OptionalAccount()', kinds: [], optional: OPTIONAL })],
);
