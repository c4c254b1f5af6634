import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import { ERROR_SCHEMA_REF } from '../../http/error-responses';
import { API_KEY_SECURITY } from '../../http/openapi';
import { AUTH_KIND } from '../../http/public.decorator';
import { ApiKeyGuard, ApiKeyRequest, ApiKeyRequirement } from './api-key.guard';
import type { ApiKeyContext } from './api-keys.service';

export type { ApiKeyContext } from './api-keys.service';

/** A developer endpoint authenticated by API key; `live: true` refuses test keys (403 LIVE_KEY_REQUIRED). */
export function ApiKeyAuth(options: { live?: boolean } = {}) {
  const requirement: ApiKeyRequirement = { kind: 'api-key', live: options.live ?? false };
  return applyDecorators(
    SetMetadata(AUTH_KIND, requirement),
    UseGuards(ApiKeyGuard),
    ApiBearerAuth(API_KEY_SECURITY),
    ApiResponse({
      status: 401,
      description: 'UNAUTHENTICATED: missing, malformed, unknown or revoked API key; carries WWW-Authenticate: Bearer realm="arcade"',
      headers: { 'WWW-Authenticate': { description: 'Bearer realm="arcade" (plus error="invalid_token" when a key was sent)', schema: { type: 'string' } } },
      schema: ERROR_SCHEMA_REF,
    }),
    ...(requirement.live ? [ApiResponse({ status: 403, description: 'LIVE_KEY_REQUIRED: a test key was sent', schema: ERROR_SCHEMA_REF })] : []),
  );
}

/** The API key that authenticated the request. */
export const CurrentApiKey = createParamDecorator((_data: unknown, context: ExecutionContext): ApiKeyContext => {
  const apiKey = context.switchToHttp().getRequest<ApiKeyRequest>().apiKey;
  if (!apiKey) throw new Error('@CurrentApiKey() used on a route without @ApiKeyAuth().');
  return apiKey;
});
