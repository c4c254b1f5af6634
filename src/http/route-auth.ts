import type { Abstract, Type } from '@nestjs/common';
import type { Request } from 'express';

/**
 * What a route requires of its caller, stored under AUTH_KIND by a composite decorator
 * (`PlayerAuth()`, `ApiKeyAuth()`, ...). `authenticator` is the provider token (a class, or an
 * abstract class another module provides) of the context that checks it; the global AuthGuard runs it, so http/ knows no context.
 */
export interface AuthRequirement {
  readonly kind: string;
  readonly authenticator: Type<RouteAuthenticator<never>> | Abstract<RouteAuthenticator<never>>;
}

/**
 * Checks a requirement against a request: throws the domain error (401, 403) or stores the caller
 * on the request for the parameter decorators.
 */
export interface RouteAuthenticator<R extends AuthRequirement = AuthRequirement> {
  authenticate(request: Request, requirement: R): Promise<void>;
}

/** Recorded on a handler by a typed parameter decorator, checked against the route's requirement at start-up. */
export interface AuthParam {
  /** For messages: `@CurrentPlayer()`. */
  readonly decorator: string;
  /** Requirement kinds the decorator can read its context from; empty for `optional`. */
  readonly kinds: readonly string[];
  /** On a `@Public()` route: resolve the caller with this requirement, never refusing. */
  readonly optional?: AuthRequirement;
}

export const AUTH_PARAMS = 'arcade:auth-params';

/**
 * The enhancer a typed parameter decorator passes to `createParamDecorator`: records what it reads,
 * so the global AuthGuard refuses to start when a handler reads a context its route does not establish.
 */
export function authParam(param: AuthParam) {
  return (target: object, key: string | symbol | undefined): void => {
    if (key === undefined) return;
    const handler = (target as Record<string | symbol, unknown>)[key] as object;
    const params: AuthParam[] = Reflect.getMetadata(AUTH_PARAMS, handler) ?? [];
    Reflect.defineMetadata(AUTH_PARAMS, [...params, param], handler);
  };
}
