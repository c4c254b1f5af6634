import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import { ERROR_SCHEMA_REF } from '../../http/error-responses';
import { API_KEY_SECURITY } from '../../http/openapi';
import { AUTH_KIND } from '../../http/public.decorator';
import { authParam } from '../../http/route-auth';
import { ApiKeyAuthenticator, ApiKeyRequest, ApiKeyRequirement } from './api-key.authenticator';
import type { ApiKeyContext } from './api-keys.service';

export type { ApiKeyContext } from './api-keys.service';

/** A developer endpoint authenticated by API key; `live: true` refuses test keys (403 LIVE_KEY_REQUIRED). Read it with `@CurrentApiKey()`. */
export function ApiKeyAuth(options: { live?: boolean } = {}) {
  const requirement: ApiKeyRequirement = { kind: 'api-key', live: options.live ?? false, authenticator: ApiKeyAuthenticator };
  return applyDecorators(
    SetMetadata(AUTH_KIND, requirement),
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

/** The API key that authenticated an `ApiKeyAuth()` route: `keyId`, `developerId`, `kind`. */
export const CurrentApiKey = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ApiKeyContext => {
    const apiKey = context.switchToHttp().getRequest<ApiKeyRequest>().apiKey;
    if (!apiKey) throw new Error('@CurrentApiKey() found no API key on the request: check the route\'s auth decorator.');
    return apiKey;
  },
  [authParam({ decorator: '@CurrentApiKey()', kinds: ['api-key'] })],
);
