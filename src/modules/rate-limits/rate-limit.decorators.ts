import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_SCHEMA_REF } from '../../http/error-responses';
import { AppThrottlerGuard } from './app-throttler.guard';
import { routeLimits, ThrottlerName } from './throttlers';

/**
 * The one way a 429 is documented (CONTRACT §12: every limit is written into the OpenAPI
 * document): what is limited, its configuration variable and default, and the answer's
 * `Retry-After` header. For limits counted in the use case, put it on the route yourself; for
 * route limits `@LimitedBy` adds it.
 */
export function ApiRateLimited(limits: string) {
  return ApiResponse({
    status: 429,
    description: `RATE_LIMITED: ${limits}. \`Retry-After\` header (whole seconds, at least 1) and \`retryAfterMs\` in the body`,
    headers: { 'Retry-After': { description: 'Seconds to wait (integer, at least 1)', schema: { type: 'integer', minimum: 1 } } },
    schema: ERROR_SCHEMA_REF,
  });
}

/**
 * A route checked by the named throttlers before its handler runs: the throttler guard, with every
 * other named throttler skipped (each throttler's `skipIf` reads the names this puts on the route),
 * and the 429 documented. It runs after the global AuthGuard (authentication and the same-origin
 * check come first) and before validation.
 */
export function LimitedBy(throttlers: ThrottlerName[], limits: string) {
  return applyDecorators(UseGuards(AppThrottlerGuard), routeLimits(throttlers), ApiRateLimited(limits));
}
