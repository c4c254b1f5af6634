/** The rate-limits module's public entry (the named rate limits and their counters): other modules import only what is here (docs/architecture.md). */
export { RateLimitsModule, throttlerRoot } from './rate-limits.module';
export { RateLimiter } from './rate-limiter.service';
export type { LimitHit } from './rate-limiter.service';
export { clientAddress } from './app-throttler.guard';
export type { Clock } from './rate-limit.clock';
export { ApiRateLimited, LimitedBy } from './rate-limit.decorators';
export type { RateLimitCounters, RateLimitStorage } from './rate-limit.storage';
export { EVERYONE } from './throttlers';
