import { ExecutionContext, Injectable } from '@nestjs/common';
import { normalizeIp, ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { RateLimitedError } from '../../errors/app-error';

/**
 * The client address a limit counts per: express's `req.ip` (which honours TRUST_PROXY), IPv4-mapped
 * addresses as IPv4 and IPv6 addresses grouped by /64, as the throttler groups them.
 */
export function clientAddress(req: { ip?: string }): string {
  return normalizeIp(req.ip ?? '') || 'unknown';
}

/**
 * The throttler guard of the route limits (`@LimitedBy`). Trackers: the client address, or the
 * throttler's own `getTracker` (`signup-global` counts everyone together). Refusals leave as the
 * contract's 429: `RATE_LIMITED`, `Retry-After` in whole seconds (at least 1) and `retryAfterMs`,
 * through the one exception filter (the throttler's own `ThrottlerException` has neither).
 */
@Injectable()
export class AppThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return clientAddress(req as { ip?: string });
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RateLimitedError(detail.timeToBlockExpire * 1000);
  }
}
