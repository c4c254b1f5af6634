import { randomUUID } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { default as Redis, Result } from 'ioredis';
import { Clock, systemClock } from './rate-limit.clock';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A sliding window: at most `limit` hits in any `ttl` milliseconds under `key`. */
export interface WindowHit {
  key: string;
  limit: number;
  ttl: number;
}

/** A recorded hit, to take back with release() (a login that turned out to be a success). */
export interface HitReceipt {
  keys: readonly string[];
  member: string;
}

export interface HitOutcome {
  allowed: boolean;
  /** Milliseconds until the refused hit would be allowed; 0 when allowed. */
  retryAfterMs: number;
  /** Hits in the first window counting this one (a refused one too, as the throttler counts). */
  totalHits: number;
  /** Empty `keys` when refused: nothing was recorded. */
  receipt: HitReceipt;
}

/** What /health/ready reports about the counters. */
export type RateLimitCounters = 'in-process' | 'redis' | 'in-process (Redis unreachable)';

/**
 * The throttler's storage (`ThrottlerStorage.increment`, used by the throttler guards) with the
 * sliding windows of CONTRACT §16.4 underneath: "at most N in any W ms", counted per hit, and a
 * refused hit is never recorded. The use cases whose limits come after other checks (§16.17) call
 * `hit()` directly: several windows checked and recorded in all or none (insert-coin's 500 ms and
 * minute rules; score per play session and per player; login per e-mail and per address), with
 * the wait in milliseconds for `retryAfterMs`.
 */
export interface RateLimitStorage extends ThrottlerStorage, OnApplicationShutdown {
  hit(windows: readonly WindowHit[]): Promise<HitOutcome>;
  /** Takes a recorded hit back out of its windows. */
  release(receipt: HitReceipt): Promise<void>;
  /** Empties one window (a successful login clears its e-mail's failures). */
  reset(key: string): Promise<void>;
  counters(): RateLimitCounters;
}

/** The throttler guard's call: one window, whole seconds, `blockDuration` unused (the window itself says when). */
abstract class SlidingWindowStorage {
  abstract hit(windows: readonly WindowHit[]): Promise<HitOutcome>;

  async increment(key: string, ttl: number, limit: number, _blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const outcome = await this.hit([{ key: `rl:${throttlerName}:{${key}}`, limit, ttl }]);
    return {
      totalHits: outcome.totalHits,
      timeToExpire: Math.ceil(ttl / 1000),
      isBlocked: !outcome.allowed,
      timeToBlockExpire: outcome.allowed ? 0 : Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)),
    };
  }
}

const REFUSED: HitReceipt = Object.freeze({ keys: Object.freeze([]), member: '' });

/** Skips the hits at or before `cutoff`; drops them from the arrays once they are half of them. */
function expire(window: MemoryWindow, cutoff: number): void {
  const at = window.at;
  let start = window.start;
  while (start < at.length && at[start] <= cutoff) start++;
  if (start > 0 && start * 2 >= at.length) {
    at.splice(0, start);
    window.members.splice(0, start);
    start = 0;
  }
  window.start = start;
}

/**
 * One window of the in-process storage: the times of its hits, oldest first, in a plain number
 * array (no object per hit: a window of a busy key holds tens of thousands of hits, which as
 * objects filled the old generation and slowed every request's garbage collection), with the hit
 * ids beside them for release(). Expired hits are skipped by moving `start`, and cut off only once
 * they are half the array: one hit costs O(1), not a shift of the whole array.
 */
interface MemoryWindow {
  ttl: number;
  at: number[];
  members: number[];
  start: number;
}

/** One process: the hit times of each window. Node runs `hit` to completion, so it is atomic. */
export class MemoryRateLimitStorage extends SlidingWindowStorage implements RateLimitStorage {
  private readonly windows = new Map<string, MemoryWindow>();
  private readonly sweeper: NodeJS.Timeout;
  private sequence = 0;

  constructor(private readonly clock: Clock = systemClock) {
    super();
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(windows: readonly WindowHit[]): Promise<HitOutcome> {
    const now = this.clock.now();
    let retryAfterMs = 0;
    let totalHits = 1;
    const live: MemoryWindow[] = [];
    for (const [index, { key, limit, ttl }] of windows.entries()) {
      let window = this.windows.get(key);
      if (!window) {
        window = { ttl, at: [], members: [], start: 0 };
        this.windows.set(key, window);
      }
      expire(window, now - ttl);
      const count = window.at.length - window.start;
      if (index === 0) totalHits = count + 1;
      if (count >= limit) retryAfterMs = Math.max(retryAfterMs, window.at[window.at.length - limit] + ttl - now);
      live.push(window);
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs, totalHits, receipt: REFUSED };
    const member = ++this.sequence;
    for (const window of live) {
      window.at.push(now);
      window.members.push(member);
    }
    return { allowed: true, retryAfterMs: 0, totalHits, receipt: { keys: windows.map((w) => w.key), member: String(member) } };
  }

  async release(receipt: HitReceipt): Promise<void> {
    const member = Number(receipt.member);
    for (const key of receipt.keys) {
      const window = this.windows.get(key);
      const index = window ? window.members.lastIndexOf(member) : -1;
      if (window && index >= window.start) {
        window.at.splice(index, 1);
        window.members.splice(index, 1);
      }
    }
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  counters(): RateLimitCounters {
    return 'in-process';
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [key, window] of this.windows) {
      const last = window.at[window.at.length - 1];
      if (last === undefined || last <= now - window.ttl) this.windows.delete(key);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}

/**
 * Shared by every instance: one sorted set per window (score = hit time), check-then-record in one
 * script, so concurrent hits on any instance cannot both pass. The time is the Redis server's (no
 * skew between instances) unless ARGV carries one (a test clock).
 * KEYS: the windows. ARGV: limit and ttl of each window, then the member, then the time or ''.
 * Returns { allowed (1/0), retry ms, hits in the first window counting this one }.
 */
export const SLIDING_WINDOW_LUA = `
local n = #KEYS
local now = tonumber(ARGV[2 * n + 2])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local retry = 0
local first = 0
for i = 1, n do
  local limit = tonumber(ARGV[2 * i - 1])
  local ttl = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - ttl)
  local count = redis.call('ZCARD', KEYS[i])
  if i == 1 then first = count end
  if count >= limit then
    local edge = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    local wait = tonumber(edge[2]) + ttl - now
    if wait > retry then retry = wait end
  end
end
if retry > 0 then return {0, retry, first + 1} end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, ARGV[2 * n + 1])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]))
end
return {1, 0, first + 1}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    slidingWindowHit(numKeys: number, ...keysAndArgs: (string | number)[]): Result<[number, number, number], Context>;
  }
}

/**
 * The Redis storage, on `ioredis`. Keys are `rl:<throttler>:{<hashed tracker>}` (no e-mail or
 * address in Redis); the braces keep one tracker's windows in one Redis Cluster slot. A call with
 * windows of several trackers (score: play session and player) needs a standalone Redis.
 */
export class RedisRateLimitStorage extends SlidingWindowStorage implements RateLimitStorage {
  private readonly instance = randomUUID();
  private sequence = 0;

  /** `clock`: only for tests; unset, the script reads the Redis server's clock. */
  constructor(private readonly redis: Redis, private readonly clock?: Clock) {
    super();
    redis.defineCommand('slidingWindowHit', { lua: SLIDING_WINDOW_LUA });
  }

  async hit(windows: readonly WindowHit[]): Promise<HitOutcome> {
    const member = `${this.instance}:${++this.sequence}`;
    const keys = windows.map((w) => w.key);
    const args = windows.flatMap((w) => [w.limit, w.ttl]);
    const [allowed, retryAfterMs, totalHits] = await this.redis.slidingWindowHit(keys.length, ...keys, ...args, member, this.clock ? this.clock.now() : '');
    return allowed === 1
      ? { allowed: true, retryAfterMs: 0, totalHits: Number(totalHits), receipt: { keys, member } }
      : { allowed: false, retryAfterMs: Number(retryAfterMs), totalHits: Number(totalHits), receipt: REFUSED };
  }

  async release(receipt: HitReceipt): Promise<void> {
    if (receipt.keys.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const key of receipt.keys) pipeline.zrem(key, receipt.member);
    await pipeline.exec();
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(key);
  }

  /** ioredis's own connection state: 'ready' once connected, anything else while it reconnects. */
  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  counters(): RateLimitCounters {
    return this.ready ? 'redis' : 'in-process (Redis unreachable)';
  }

  async onApplicationShutdown(): Promise<void> {
    // quit() fails while disconnected; disconnect() also stops the reconnect loop.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Redis first; while Redis cannot answer, this instance's own counters (limits then hold per
 * instance instead of across all of them: degraded, but play and login stay up and limited).
 * Every hit tries Redis again, so shared counting resumes by itself once it is back.
 */
export class FallbackRateLimitStorage extends SlidingWindowStorage implements RateLimitStorage {
  private failing = false;

  constructor(
    private readonly shared: RedisRateLimitStorage,
    private readonly local: MemoryRateLimitStorage,
    /** Called once per switch: to local counters (with the reason) and back. */
    private readonly onSwitch: (failing: boolean, reason?: string) => void,
  ) {
    super();
  }

  async hit(windows: readonly WindowHit[]): Promise<HitOutcome> {
    try {
      const outcome = await this.shared.hit(windows);
      if (this.failing) this.switchTo(false);
      return outcome;
    } catch (error) {
      if (!this.failing) this.switchTo(true, error instanceof Error ? error.message : String(error));
      return this.local.hit(windows);
    }
  }

  /** Both stores: the hit may have been counted in either; a member unknown to one is a no-op there. */
  async release(receipt: HitReceipt): Promise<void> {
    await Promise.all([this.shared.release(receipt).catch(() => undefined), this.local.release(receipt)]);
  }

  async reset(key: string): Promise<void> {
    await Promise.all([this.shared.reset(key).catch(() => undefined), this.local.reset(key)]);
  }

  counters(): RateLimitCounters {
    return this.shared.counters();
  }

  private switchTo(failing: boolean, reason?: string): void {
    this.failing = failing;
    this.onSwitch(failing, reason);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.shared.onApplicationShutdown(), this.local.onApplicationShutdown()]);
  }
}
