import type { ThrottlerModuleOptions, ThrottlerOptions } from '@nestjs/throttler';
import type { Config, RateLimitRule } from '../../config';
import type { RateLimitStorage } from './rate-limit.storage';

/**
 * Every limit of the service, by name: the named throttlers of `ThrottlerModule`. Two kinds:
 *
 * - Route limits, checked by `AppThrottlerGuard` before the handler runs (`@LimitedBy(...)` on a
 *   route): sign-up per client address and for everyone, where counting first is the point.
 * - Use-case limits, counted by `RateLimiter` inside the use case at the place CONTRACT §16.17
 *   gives limits (after validation, the path's 404, replays, conflicts and range checks):
 *   insert-coin, scores, initials, the developer API, login failures, verification and password-reset mails, purchases. The
 *   guard never applies them (every route skips them, see LimitedBy).
 */
export const THROTTLER_NAMES = [
  'insert-coin-burst',
  'insert-coin-minute',
  'score-per-session',
  'score-per-player',
  'initials-per-player',
  'developer-per-key',
  'login-per-email',
  'login-per-address',
  'signup-per-address',
  'signup-global',
  'mail-per-account',
  'mail-per-address',
  'mail-global',
  'reset-per-email',
  'reset-per-address',
  'purchases-per-player',
  'export-per-account',
] as const;

export type ThrottlerName = (typeof THROTTLER_NAMES)[number];

/**
 * Spec §8 / CONTRACT §16.4: 1 insert-coin attempt per 500 ms and 60 in any 60 s, per play session.
 * Not configurable (a test run alone may shorten the 500 ms: Config.rateLimits.insertCoinBurst).
 */
export const INSERT_COIN_MINUTE: RateLimitRule = Object.freeze({ limit: 60, windowMs: 60_000 });

/** The tracker of the limits counted for everyone at once. */
export const EVERYONE = 'everyone';

function throttler(name: ThrottlerName, rule: RateLimitRule, extra: Partial<ThrottlerOptions> = {}): ThrottlerOptions {
  return { name, limit: rule.limit, ttl: rule.windowMs, blockDuration: 0, ...extra };
}

/** `ThrottlerModule.forRootAsync` options: every limit from configuration, on the given storage. */
export function throttlerOptions(config: Config, storage: RateLimitStorage): ThrottlerModuleOptions {
  const limits = config.rateLimits;
  return {
    storage,
    // The 429 answer carries `Retry-After` itself (AppThrottlerGuard); no X-RateLimit-* headers.
    setHeaders: false,
    throttlers: [
      throttler('insert-coin-burst', limits.insertCoinBurst),
      throttler('insert-coin-minute', INSERT_COIN_MINUTE),
      throttler('score-per-session', limits.scorePerSession),
      throttler('score-per-player', limits.scorePerPlayer),
      throttler('initials-per-player', limits.initialsPerPlayer),
      throttler('developer-per-key', limits.developerPerKey),
      throttler('login-per-email', limits.loginPerEmail),
      throttler('login-per-address', limits.loginPerAddress),
      throttler('signup-per-address', limits.signUpPerAddress),
      throttler('signup-global', limits.signUpGlobal, { getTracker: () => EVERYONE }),
      throttler('mail-per-account', limits.mailPerAccount),
      throttler('mail-per-address', limits.mailPerAddress),
      throttler('mail-global', limits.mailGlobal),
      throttler('reset-per-email', limits.resetPerEmail),
      throttler('reset-per-address', limits.resetPerAddress),
      throttler('purchases-per-player', limits.purchasesPerPlayer),
      throttler('export-per-account', limits.exportPerAccount),
    ],
  };
}
