import type { RateLimitRule } from '../../config';

export interface RateLimitResult {
  allowed: boolean;
  /** Milliseconds until the refused request would be allowed; 0 when allowed. */
  retryAfterMs: number;
}

/** What one request counts against: a bucket (`score:player:<id>`) and its rules. */
export interface RateLimit {
  bucket: string;
  rules: readonly RateLimitRule[];
}

/**
 * Sliding-window counters (CONTRACT §16.4: "at most N in any W milliseconds"). A hit checks every
 * rule of every bucket and is recorded in all of them only when all allow it; a refused hit is
 * not recorded anywhere.
 */
export interface RateLimitStore {
  hit(limits: readonly RateLimit[]): Promise<RateLimitResult>;
  close(): Promise<void>;
}

function ruleKey(bucket: string, rule: RateLimitRule): string {
  // The hash tag keeps all rules of one bucket in one Redis Cluster slot (a single-bucket script
  // stays cluster-safe; several buckets in one call need a standalone Redis or one slot).
  return `rl:{${bucket}}:${rule.limit}/${rule.windowMs}`;
}

/** One process: timestamps per rule in memory. Node runs `hit` to completion, so it is atomic. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { windowMs: number; times: number[] }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(limits: readonly RateLimit[]): Promise<RateLimitResult> {
    const now = this.clock();
    let retryAfterMs = 0;
    const windows = limits.flatMap(({ bucket, rules }) => rules.map((rule) => ({ bucket, rule }))).map(({ bucket, rule }) => {
      const key = ruleKey(bucket, rule);
      let window = this.windows.get(key);
      if (!window) {
        window = { windowMs: rule.windowMs, times: [] };
        this.windows.set(key, window);
      }
      const times = window.times;
      let expired = 0;
      while (expired < times.length && times[expired] <= now - rule.windowMs) expired++;
      if (expired) times.splice(0, expired);
      if (times.length >= rule.limit) {
        retryAfterMs = Math.max(retryAfterMs, times[times.length - rule.limit] + rule.windowMs - now);
      }
      return times;
    });
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
    for (const times of windows) times.push(now);
    return { allowed: true, retryAfterMs: 0 };
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, window] of this.windows) {
      const last = window.times[window.times.length - 1];
      if (last === undefined || last <= now - window.windowMs) this.windows.delete(key);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}

/**
 * Shared by every instance: one sorted set per rule, timestamps from the Redis server clock (no
 * skew between instances), check-then-record in one Lua script so concurrent hits cannot both pass.
 */
export const SLIDING_WINDOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = #KEYS
local retry = 0
for i = 1, n do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= limit then
    local oldest = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    local wait = tonumber(oldest[2]) + window - now
    if wait > retry then retry = wait end
  end
end
if retry > 0 then return {0, retry} end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, ARGV[2 * n + 1])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]))
end
return {1, 0}
`;

export interface SlidingWindowRedis {
  slidingWindowHit(...args: (string | number)[]): Promise<[number, number]>;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export class RedisRateLimitStore implements RateLimitStore {
  private sequence = 0;

  constructor(private readonly redis: SlidingWindowRedis, private readonly instanceId: string) {}

  async hit(limits: readonly RateLimit[]): Promise<RateLimitResult> {
    const pairs = limits.flatMap(({ bucket, rules }) => rules.map((rule) => ({ bucket, rule })));
    const keys = pairs.map(({ bucket, rule }) => ruleKey(bucket, rule));
    const argv = pairs.flatMap(({ rule }) => [rule.limit, rule.windowMs]);
    // Members must be unique: two hits in the same millisecond are two hits.
    const member = `${this.instanceId}:${++this.sequence}`;
    const [allowed, retryAfterMs] = await this.redis.slidingWindowHit(keys.length, ...keys, ...argv, member);
    return { allowed: allowed === 1, retryAfterMs: Number(retryAfterMs) };
  }

  async close(): Promise<void> {
    // quit() fails while disconnected; disconnect() also stops the reconnect loop.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Redis first; while Redis cannot answer, this instance's own counters. Limits then hold per
 * instance instead of across all of them — degraded, but login and play stay up and stay limited.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  private failing = false;

  constructor(
    private readonly primary: RateLimitStore,
    private readonly fallback: RateLimitStore,
    private readonly onSwitch: (failing: boolean, reason?: string) => void,
  ) {}

  async hit(limits: readonly RateLimit[]): Promise<RateLimitResult> {
    try {
      const result = await this.primary.hit(limits);
      if (this.failing) this.switchTo(false);
      return result;
    } catch (error) {
      if (!this.failing) this.switchTo(true, error instanceof Error ? error.message : String(error));
      return this.fallback.hit(limits);
    }
  }

  private switchTo(failing: boolean, reason?: string): void {
    this.failing = failing;
    this.onSwitch(failing, reason);
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
