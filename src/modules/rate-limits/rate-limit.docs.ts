import { ApiResponse } from '@nestjs/swagger';
import { ERROR_SCHEMA_REF } from '../../http/error-responses';

/** OpenAPI for a rate-limited route: the 429 answer with its `Retry-After` header (CONTRACT §12). */
export function ApiRateLimited(limits: string) {
  return ApiResponse({
    status: 429,
    description: `RATE_LIMITED: ${limits}. \`Retry-After\` header (whole seconds, at least 1) and \`retryAfterMs\` in the body`,
    headers: { 'Retry-After': { description: 'Seconds to wait (integer, at least 1)', schema: { type: 'integer', minimum: 1 } } },
    schema: ERROR_SCHEMA_REF,
  });
}
