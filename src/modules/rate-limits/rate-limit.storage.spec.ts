import { ThrottlerStorageService } from '@nestjs/throttler';
import { FallbackRateLimitStorage, MemoryRateLimitStorage, RedisRateLimitStorage, WindowHit } from './rate-limit.storage';

const burst = (key = 's1'): WindowHit => ({ key: `burst:${key}`, limit: 1, ttl: 500 });
const minute = (key = 's1'): WindowHit => ({ key: `minute:${key}`, limit: 60, ttl: 60_000 });
const insertCoin = (key = 's1') => [burst(key), minute(key)];

describe('MemoryRateLimitStorage: sliding windows', () => {
  let now: number;
  let storage: MemoryRateLimitStorage;

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryRateLimitStorage({ now: () => now });
  });
  afterEach(() => storage.onApplicationShutdown());

  it('allows one hit per 500 ms and says in milliseconds how long a refused one waits', async () => {
    expect(await storage.hit(insertCoin())).toMatchObject({ allowed: true, retryAfterMs: 0 });
    now += 200;
    expect(await storage.hit(insertCoin())).toMatchObject({ allowed: false, retryAfterMs: 300 });
    now += 300;
    expect(await storage.hit(insertCoin())).toMatchObject({ allowed: true, retryAfterMs: 0 });
  });

  it('refuses the 61st hit in any 60 seconds, and a refused hit is counted nowhere', async () => {
    for (let i = 0; i < 60; i++) {
      expect((await storage.hit(insertCoin())).allowed).toBe(true);
      now += 500;
    }
    // the first hit was at 1_000_000, now is 1_030_000: it leaves the window at 1_060_000
    expect(await storage.hit(insertCoin())).toMatchObject({ allowed: false, retryAfterMs: 30_000 });
    now += 29_999;
    expect((await storage.hit(insertCoin())).allowed).toBe(false);
    now += 1;
    expect((await storage.hit(insertCoin())).allowed).toBe(true);
  });

  it('keeps keys apart', async () => {
    expect((await storage.hit(insertCoin('a'))).allowed).toBe(true);
    expect((await storage.hit(insertCoin('b'))).allowed).toBe(true);
    expect((await storage.hit(insertCoin('a'))).allowed).toBe(false);
  });

  it('counts several windows in all or none: refused per player, the play session keeps its allowance', async () => {
    const perSession = (id: string): WindowHit => ({ key: `session:${id}`, limit: 5, ttl: 60_000 });
    const perPlayer: WindowHit = { key: 'player:p1', limit: 2, ttl: 60_000 };
    expect((await storage.hit([perSession('a'), perPlayer])).allowed).toBe(true);
    expect((await storage.hit([perSession('b'), perPlayer])).allowed).toBe(true);
    expect((await storage.hit([perSession('c'), perPlayer])).allowed).toBe(false);
    for (let i = 0; i < 5; i++) expect((await storage.hit([perSession('c')])).allowed).toBe(true);
    expect((await storage.hit([perSession('c')])).allowed).toBe(false);
  });

  it('takes a released hit back and forgets a reset window', async () => {
    const window: WindowHit = { key: 'login', limit: 2, ttl: 60_000 };
    const first = await storage.hit([window]);
    await storage.hit([window]);
    expect((await storage.hit([window])).allowed).toBe(false);
    await storage.release(first.receipt);
    expect((await storage.hit([window])).allowed).toBe(true);
    expect((await storage.hit([window])).allowed).toBe(false);
    await storage.reset('login');
    expect((await storage.hit([window])).allowed).toBe(true);
  });

  it("counts a busy key's window exactly while its oldest hits expire a few at a time (and a release after a cut)", async () => {
    // 3 hits every 10 ms for 2 s: 600 hits, a window of 1 s holds the last 300 of them.
    const busy: WindowHit = { key: 'busy', limit: 10_000, ttl: 1_000 };
    const receipts = [];
    for (let i = 0; i < 200; i++) {
      for (let j = 0; j < 3; j++) receipts.push((await storage.hit([busy])).receipt);
      now += 10;
    }
    // now = start + 2,000 ms: hits at start + 1,000 and before have left; 99 ticks of 3 remain.
    expect((await storage.hit([busy])).totalHits).toBe(99 * 3 + 1);
    await storage.release(receipts[receipts.length - 1]);
    await storage.release(receipts[0]); // expired long ago: nothing to take back
    expect((await storage.hit([busy])).totalHits).toBe(99 * 3 + 1);
    const full: WindowHit = { key: 'busy', limit: 99 * 3 + 1, ttl: 1_000 };
    expect(await storage.hit([full])).toMatchObject({ allowed: false, retryAfterMs: 10 });
  });

  it('answers the throttler guard through ThrottlerStorage.increment, in whole seconds', async () => {
    expect(await storage.increment('tracker', 60_000, 2, 60_000, 'signup')).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    await storage.increment('tracker', 60_000, 2, 60_000, 'signup');
    now += 500;
    expect(await storage.increment('tracker', 60_000, 2, 60_000, 'signup')).toEqual({ totalHits: 3, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 60 });
    expect((await storage.increment('tracker', 60_000, 2, 60_000, 'other')).isBlocked).toBe(false);
  });
});

/**
 * Why the limits run on this storage and not on the throttler's own memory storage
 * (ThrottlerStorageService, whose clock is Date.now: Jest's fake timers move it here).
 */
describe('the throttler memory storage against the contract (CONTRACT §16.4, §16.18)', () => {
  let ours: MemoryRateLimitStorage;
  let theirs: ThrottlerStorageService;
  const start = 1_700_000_000_000;

  beforeEach(() => {
    jest.useFakeTimers({ now: start });
    ours = new MemoryRateLimitStorage({ now: () => Date.now() });
    theirs = new ThrottlerStorageService();
  });
  afterEach(async () => {
    theirs.onApplicationShutdown();
    await ours.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('after the 61st attempt, the next is allowed once the oldest leaves the window, not a whole window later', async () => {
    for (let i = 0; i < 60; i++) {
      expect((await ours.hit([minute()])).allowed).toBe(true);
      expect((await theirs.increment('s1', 60_000, 60, 60_000, 'minute')).isBlocked).toBe(false);
      jest.advanceTimersByTime(500);
    }
    // 30 s in: the 61st attempt is refused by both
    expect((await ours.hit([minute()])).allowed).toBe(false);
    expect((await theirs.increment('s1', 60_000, 60, 60_000, 'minute')).isBlocked).toBe(true);
    // 60 s in: the first attempt has left the window, so one more is allowed (§16.4 "60 in any 60 seconds") ...
    jest.advanceTimersByTime(30_000);
    expect((await ours.hit([minute()])).allowed).toBe(true);
    // ... but the throttler blocked the session for a whole window from the refusal (until 90 s)
    const blocked = await theirs.increment('s1', 60_000, 60, 60_000, 'minute');
    expect(blocked).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
  });

  it('a refused attempt does not count (§16.18), and the wait comes in milliseconds for retryAfterMs', async () => {
    expect((await ours.hit(insertCoin())).allowed).toBe(true);
    expect((await theirs.increment('s1', 500, 1, 500, 'burst')).isBlocked).toBe(false);
    jest.advanceTimersByTime(200);
    const refused = await ours.hit(insertCoin());
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 300 });
    // the throttler's answer is whole seconds: 1 s for a wait of 300 ms
    expect(await theirs.increment('s1', 500, 1, 500, 'burst')).toMatchObject({ isBlocked: true, timeToBlockExpire: 1, totalHits: 2 });
    // 500 ms after the first attempt: allowed again; the throttler counted the refusal and blocks until 700 ms
    jest.advanceTimersByTime(300);
    expect((await ours.hit(insertCoin())).allowed).toBe(true);
    expect((await theirs.increment('s1', 500, 1, 500, 'burst')).isBlocked).toBe(true);
  });

  it('a fixed one-minute window would let 120 attempts through in one second at a minute boundary; the sliding window lets 60', async () => {
    const fixedWindow = new Map<number, number>();
    const fixedAllows = () => {
      const windowStart = Math.floor(Date.now() / 60_000);
      const count = fixedWindow.get(windowStart) ?? 0;
      if (count >= 60) return false;
      fixedWindow.set(windowStart, count + 1);
      return true;
    };
    jest.setSystemTime(Math.ceil(start / 60_000) * 60_000 - 500);
    let fixed = 0;
    let sliding = 0;
    for (let i = 0; i < 200; i++) {
      if (fixedAllows()) fixed += 1;
      if ((await ours.hit([minute()])).allowed) sliding += 1;
      jest.advanceTimersByTime(5);
    }
    expect(fixed).toBe(120);
    expect(sliding).toBe(60);
  });
});

describe('FallbackRateLimitStorage', () => {
  it('counts in process while Redis fails, tells once each way, and goes back to Redis when it answers', async () => {
    let down = true;
    const sharedCounts = new MemoryRateLimitStorage();
    const redis = {
      hit: (windows: readonly WindowHit[]) => (down ? Promise.reject(new Error('Stream isn\'t writeable')) : sharedCounts.hit(windows)),
      release: () => Promise.resolve(),
      reset: () => Promise.resolve(),
      counters: () => (down ? 'in-process (Redis unreachable)' : 'redis'),
      onApplicationShutdown: () => sharedCounts.onApplicationShutdown(),
    } as unknown as RedisRateLimitStorage;
    const switches: boolean[] = [];
    const storage = new FallbackRateLimitStorage(redis, new MemoryRateLimitStorage(), (failing) => switches.push(failing));
    const window = [{ key: 'k', limit: 1, ttl: 60_000 }];
    expect((await storage.hit(window)).allowed).toBe(true);
    expect((await storage.hit(window)).allowed).toBe(false);
    expect((await storage.hit(window)).allowed).toBe(false);
    expect(storage.counters()).toBe('in-process (Redis unreachable)');
    down = false;
    expect((await storage.hit(window)).allowed).toBe(true);
    expect((await storage.hit(window)).allowed).toBe(false);
    expect(storage.counters()).toBe('redis');
    expect(switches).toEqual([true, false]);
    await storage.onApplicationShutdown();
  });
});
