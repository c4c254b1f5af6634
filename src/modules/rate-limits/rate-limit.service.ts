import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { RateLimitRule } from '../../config';
import { RateLimitedError, ServiceUnavailableError } from '../../errors/app-error';
import { RATE_LIMIT_STORE } from './rate-limits.tokens';
import type { RateLimit, RateLimitResult, RateLimitStore } from './rate-limit.store';

export type { RateLimitRule } from '../../config';
export type { RateLimit, RateLimitResult } from './rate-limit.store';

/**
 * Sliding-window rate limits, shared by all instances when REDIS_URL is set (else per process).
 *
 * Usage (call it inside the use case, AFTER the idempotency pre-check/claim, so a replay or a key
 * conflict never counts and is never refused — CONTRACT §7, §16.18):
 *
 *   await this.rateLimits.enforce(`score:session:${sessionId}`, [config.rateLimits.scorePerSession]);
 *   // throws RateLimitedError → 429 RATE_LIMITED, `Retry-After` (s, >= 1) and `retryAfterMs`
 *
 *   const { allowed, retryAfterMs } = await this.rateLimits.hit(bucket, rules);  // no throw
 *
 *   // several buckets at once: counted in all or none (a request refused per player does not
 *   // use up its per-session allowance)
 *   await this.rateLimits.enforceAll([{ bucket: `score:session:${id}`, rules: [...] }, { bucket: `score:player:${pid}`, rules: [...] }]);
 *
 * A bucket names what is counted (`login:email:<lower-case e-mail>`, `dev:key:<keyId>`); all
 * rules of one call are checked together and the hit is recorded only when every rule allows it.
 * While Redis is unreachable each instance counts on its own (limits are never skipped); only a
 * failure of the store itself answers 503 SERVICE_UNAVAILABLE.
 */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly logger = new Logger(RateLimitService.name);

  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  hit(bucket: string, rules: readonly RateLimitRule[]): Promise<RateLimitResult> {
    return this.hitAll([{ bucket, rules }]);
  }

  async hitAll(limits: readonly RateLimit[]): Promise<RateLimitResult> {
    try {
      return await this.store.hit(limits);
    } catch (error) {
      this.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'Rate-limit store unavailable');
      throw new ServiceUnavailableError();
    }
  }

  /** Records a hit or throws RateLimitedError (429) when any rule refuses it. */
  enforce(bucket: string, rules: readonly RateLimitRule[]): Promise<void> {
    return this.enforceAll([{ bucket, rules }]);
  }

  /** Records one hit in every bucket, or throws RateLimitedError (429) when any rule of any bucket refuses it. */
  async enforceAll(limits: readonly RateLimit[]): Promise<void> {
    const result = await this.hitAll(limits);
    if (!result.allowed) throw new RateLimitedError(result.retryAfterMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close();
  }
}

/** Insert-coin (spec §8, CONTRACT §12): 1 per 500 ms and 60 per minute, per play session. */
export const INSERT_COIN_RULES: readonly RateLimitRule[] = Object.freeze([
  { limit: 1, windowMs: 500 },
  { limit: 60, windowMs: 60_000 },
]);
