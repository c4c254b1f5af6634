/** Injection token of the RateLimitStore (memory or Redis, chosen from config at start-up). */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
