import { hash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerModuleOptions } from '@nestjs/throttler';
import { RateLimitedError, ServiceUnavailableError } from '../../errors/app-error';
import type { HitOutcome, HitReceipt, RateLimitStorage, WindowHit } from './rate-limit.storage';
import type { ThrottlerName } from './throttlers';

/** One limit to count a request against: the named throttler and what it counts per (a play session id, a player id...). */
export interface LimitHit {
  throttler: ThrottlerName;
  tracker: string;
}

/**
 * The use cases' way to the throttler: the limits are the named throttlers of `ThrottlerModule`
 * (their `limit` and `ttl`), the counting is the throttler's storage. Called inside the use case at
 * the point CONTRACT §16.17 gives limits, so a replay, a 404 or a 409 never counts:
 *
 *   await this.limits.consume({ throttler: 'score-per-session', tracker: session.id },
 *                             { throttler: 'score-per-player', tracker: playerId });
 *   // all or none: refused by one, counted in neither; 429 RATE_LIMITED with Retry-After and retryAfterMs
 *
 * Trackers are hashed into the key: no e-mail or address is stored with the counters.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger('RateLimits');
  private readonly rules = new Map<string, { limit: number; ttl: number }>();

  constructor(
    @InjectThrottlerStorage() private readonly storage: RateLimitStorage,
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
  ) {
    for (const throttler of Array.isArray(options) ? options : options.throttlers) {
      if (typeof throttler.limit !== 'number' || typeof throttler.ttl !== 'number') throw new Error(`Throttler ${throttler.name}: limit and ttl must be numbers.`);
      this.rules.set(throttler.name ?? 'default', { limit: throttler.limit, ttl: throttler.ttl });
    }
  }

  /** Counts the request under every limit, or throws RateLimitedError (429) and counts it nowhere. */
  async consume(...hits: LimitHit[]): Promise<HitReceipt> {
    const outcome = await this.check(...hits);
    if (!outcome.allowed) throw new RateLimitedError(outcome.retryAfterMs);
    return outcome.receipt;
  }

  /** As consume(), answering instead of throwing: for a 429 that must wait for another check. */
  async check(...hits: LimitHit[]): Promise<HitOutcome> {
    try {
      return await this.storage.hit(hits.map((hit) => this.window(hit)));
    } catch (error) {
      // The storage falls back to in-process counters on its own; this is a failure of both.
      this.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'Rate-limit storage failed');
      throw new ServiceUnavailableError();
    }
  }

  /** Takes a counted request back (a login that succeeded: only failures count). */
  release(receipt: HitReceipt): Promise<void> {
    return this.storage.release(receipt);
  }

  /** Forgets every request counted under one limit and tracker (a success clears its e-mail's failures). */
  reset(throttler: ThrottlerName, tracker: string): Promise<void> {
    return this.storage.reset(this.key(throttler, tracker));
  }

  private window({ throttler, tracker }: LimitHit): WindowHit {
    const rule = this.rules.get(throttler);
    if (!rule) throw new Error(`No throttler named ${throttler} in ThrottlerModule.`);
    return { key: this.key(throttler, tracker), ...rule };
  }

  private key(throttler: ThrottlerName, tracker: string): string {
    return `rl:${throttler}:{${hash('sha256', tracker, 'hex').slice(0, 32)}}`;
  }
}
