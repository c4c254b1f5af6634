import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { UnauthenticatedError } from '../../errors/app-error';
import type { AuthRequirement, RouteAuthenticator } from '../../http/route-auth';
import { ApiKeyContext, ApiKeysService } from './api-keys.service';
import { LiveKeyRequiredError } from './developer-portal.errors';

export interface ApiKeyRequirement extends AuthRequirement {
  readonly kind: 'api-key';
  readonly live: boolean;
}

export type ApiKeyRequest = Request & { apiKey?: ApiKeyContext };

const REALM = 'Bearer realm="arcade"';

/**
 * `Authorization: Bearer svc_…`: a missing, malformed, unknown or revoked key is 401 with
 * `WWW-Authenticate` (adding `error="invalid_token"` whenever the header was sent, CONTRACT
 * §16.26); a test key where a live one is needed is 403 LIVE_KEY_REQUIRED. Run by the global
 * AuthGuard, before validation (§16.14).
 */
@Injectable()
export class ApiKeyAuthenticator implements RouteAuthenticator<ApiKeyRequirement> {
  constructor(private readonly keys: ApiKeysService) {}

  async authenticate(request: ApiKeyRequest, requirement: ApiKeyRequirement): Promise<void> {
    const header = request.headers.authorization;
    if (header === undefined) {
      throw new UnauthenticatedError('An API key is required: Authorization: Bearer svc_live_… or svc_test_….', { 'WWW-Authenticate': REALM });
    }
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const apiKey = match ? await this.keys.authenticate(match[1]!) : undefined;
    if (!apiKey) {
      throw new UnauthenticatedError('The API key is missing, malformed, unknown or revoked.', {
        'WWW-Authenticate': `${REALM}, error="invalid_token"`,
      });
    }
    if (requirement.live && apiKey.kind !== 'live') throw new LiveKeyRequiredError();
    request.apiKey = apiKey;
  }
}
