import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiResponse } from '@nestjs/swagger';
import { ERROR_SCHEMA_REF } from '../../http/error-responses';
import { COOKIE_SECURITY } from '../../http/openapi';
import { AUTH_KIND, Public } from '../../http/public.decorator';
import { AuthenticatedRequest, CookieAuthGuard, CookieAuthRequirement, SameOriginGuard } from './cookie-auth.guard';
import type { AuthContext } from './login-session.service';

export type { AuthContext } from './login-session.service';

const CROSS_ORIGIN = 'FORBIDDEN: a state-changing request from another origin';

function cookieAuth(requirement: CookieAuthRequirement, forbidden: string[]) {
  return applyDecorators(
    SetMetadata(AUTH_KIND, requirement),
    UseGuards(CookieAuthGuard),
    ApiCookieAuth(COOKIE_SECURITY),
    ApiResponse({ status: 401, description: 'UNAUTHENTICATED: not signed in', schema: ERROR_SCHEMA_REF }),
    ApiResponse({ status: 403, description: [CROSS_ORIGIN, ...forbidden].join('; '), schema: ERROR_SCHEMA_REF }),
  );
}

/** Any signed-in account; `emailVerified: true` also requires a verified e-mail (403 EMAIL_NOT_VERIFIED). */
export function SignedIn(options: { emailVerified?: boolean } = {}) {
  const emailVerified = options.emailVerified ?? false;
  return cookieAuth({ kind: 'signed-in', emailVerified }, emailVerified ? ['EMAIL_NOT_VERIFIED: verify your e-mail first'] : []);
}

/** A play-ready player: signed in, e-mail verified, player profile linked. */
export function PlayerAuth() {
  return cookieAuth({ kind: 'player', emailVerified: true }, [
    'EMAIL_NOT_VERIFIED: verify your e-mail first',
    'ACCOUNT_NOT_LINKED: the account has no player profile',
  ]);
}

/** A developer: signed in, e-mail verified, role developer. */
export function DeveloperAuth() {
  return cookieAuth({ kind: 'developer', emailVerified: true }, [
    'EMAIL_NOT_VERIFIED: verify your e-mail first',
    'FORBIDDEN: the account is not a developer',
  ]);
}

/** An administrator. */
export function AdminAuth() {
  return cookieAuth({ kind: 'admin', emailVerified: false }, ['FORBIDDEN: the account is not an administrator']);
}

/** A public endpoint that changes state (sign-up, login, logout): still refused across origins. */
export function PublicSameOrigin() {
  return applyDecorators(
    Public(),
    UseGuards(SameOriginGuard),
    ApiResponse({ status: 403, description: CROSS_ORIGIN, schema: ERROR_SCHEMA_REF }),
  );
}

/** The signed-in caller, as resolved by the cookie guard. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('@CurrentAccount() used on a route without a cookie auth decorator.');
  return auth;
});
