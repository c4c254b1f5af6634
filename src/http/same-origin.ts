import type { Request } from 'express';
import type { Config } from '../config';
import { ForbiddenError } from '../errors/app-error';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origins that count as this service (CONTRACT §16.15, §16.27). */
export function allowedOrigins(config: Pick<Config, 'publicOrigin' | 'publicOriginIsDefault' | 'port'>): Set<string> {
  const origins = new Set([config.publicOrigin]);
  if (config.publicOriginIsDefault) {
    origins.add(`http://localhost:${config.port}`);
    origins.add(`http://127.0.0.1:${config.port}`);
    origins.add(`http://[::1]:${config.port}`);
  }
  return origins;
}

/**
 * Same-origin only for cookie-authenticated state changes: a foreign `Origin`, or a
 * `Sec-Fetch-Site` of `cross-site` / `same-site`, is refused with 403 FORBIDDEN.
 */
export function assertSameOrigin(request: Request, origins: Set<string>): void {
  if (!STATE_CHANGING.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin !== undefined && !origins.has(origin)) {
    throw new ForbiddenError('Cross-origin requests are not allowed.');
  }
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    throw new ForbiddenError('Cross-site requests are not allowed.');
  }
}
