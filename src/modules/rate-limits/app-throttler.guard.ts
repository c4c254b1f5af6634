import { ExecutionContext, Injectable } from '@nestjs/common';
import { normalizeIp, ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import { RateLimitedError } from '../../errors/app-error';
import type { RateLimitStorage, WindowHit } from './rate-limit.storage';

/**
 * The client address a limit counts per: express's `req.ip` (which honours TRUST_PROXY), IPv4-mapped
 * addresses as IPv4 and IPv6 addresses grouped by /64, as the throttler groups them.
 */
export function clientAddress(req: { ip?: string }): string {
  return normalizeIp(req.ip ?? '') || 'unknown';
}

const WINDOWS = Symbol('rate-limit windows');
type Collecting = Record<string | symbol, unknown> & { [WINDOWS]?: WindowHit[] };

/**
 * The throttler guard of the route limits (`@LimitedBy`). The throttler decides which named
 * throttlers apply (each one's `skipIf` reads the names `@LimitedBy` puts on the route), their
 * limit and ttl (`@Throttle` overrides), the tracker (the client address, or the throttler's own `getTracker`: `signup-global` counts everyone
 * together) and the key. The counting differs in one point: the throttler counts each limit on
 * its own, so a sign-up refused per address would still use up the global allowance (one flooder
 * could shut everyone out); here the route's limits are counted in one step, all or none.
 * Refusals leave as the contract's 429: `RATE_LIMITED`, `Retry-After` in whole seconds and
 * `retryAfterMs`, through the one exception filter.
 */
@Injectable()
export class AppThrottlerGuard extends ThrottlerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = this.getRequestResponse(context).req as Collecting;
    const windows: WindowHit[] = [];
    req[WINDOWS] = windows;
    try {
      await super.canActivate(context);
    } finally {
      delete req[WINDOWS];
    }
    if (windows.length === 0) return true;
    const outcome = await (this.storageService as RateLimitStorage).hit(windows);
    if (!outcome.allowed) throw new RateLimitedError(outcome.retryAfterMs);
    return true;
  }

  /** Called by the throttler once per applicable named throttler: collects its window instead of counting it alone. */
  protected override async handleRequest({ context, limit, ttl, throttler, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const req = this.getRequestResponse(context).req as Collecting;
    const name = throttler.name ?? 'default';
    const key = generateKey(context, await getTracker(req, context), name);
    req[WINDOWS]!.push({ key: `rl:${name}:{${key}}`, limit, ttl });
    return true;
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return clientAddress(req as { ip?: string });
  }
}
