import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** The shared flat error schema registered by openapi.ts. */
export const ERROR_SCHEMA_REF = { $ref: '#/components/schemas/Error' } as const;

/**
 * Documents a route's own error answers in one line: `@ApiErrors({ 404: 'NOT_FOUND: unknown game', 409: 'SLUG_TAKEN' })`.
 * 401 and 403 come with the auth decorators, 429 with `ApiRateLimited()`; 400, 413, 415, 503 (and
 * 404 on paths with a parameter) are added to every operation by openapi.ts unless described here.
 */
export function ApiErrors(errors: Partial<Record<400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503, string>>) {
  return applyDecorators(
    ...Object.entries(errors).map(([status, description]) => ApiResponse({ status: Number(status), description, schema: ERROR_SCHEMA_REF })),
  );
}
