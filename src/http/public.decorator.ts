import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_SCHEMA_REF } from './error-responses';

/** Marks a route as deliberately unauthenticated; the global AuthGuard answers 401 on routes with neither this nor an auth requirement. */
export const IS_PUBLIC = 'arcade:public';
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Set by the composite auth decorators (PlayerAuth, ApiKeyAuth, ...): the route's AuthRequirement (src/http/route-auth.ts). */
export const AUTH_KIND = 'arcade:auth-kind';

/** A public route that changes state: the global AuthGuard refuses it across origins (403 FORBIDDEN). */
export const SAME_ORIGIN = 'arcade:same-origin';

export const CROSS_ORIGIN_DOC = 'FORBIDDEN: a state-changing request from another origin';

/** A public endpoint that changes state (sign-up, login, logout): still refused across origins. */
export function PublicSameOrigin() {
  return applyDecorators(
    Public(),
    SetMetadata(SAME_ORIGIN, true),
    ApiResponse({ status: 403, description: CROSS_ORIGIN_DOC, schema: ERROR_SCHEMA_REF }),
  );
}
