import { FallbackRateLimitStore, MemoryRateLimitStore, RateLimitStore } from './rate-limit.store';

const INSERT_COIN = [
  { limit: 1, windowMs: 500 },
  { limit: 60, windowMs: 60_000 },
];

describe('MemoryRateLimitStore (sliding windows)', () => {
  let now: number;
  let store: MemoryRateLimitStore;

  beforeEach(() => {
    now = 1_000_000;
    store = new MemoryRateLimitStore(() => now);
  });
  afterEach(() => store.close());

  it('allows one hit per 500 ms and reports the wait of a refused one', async () => {
    expect(await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).toEqual({ allowed: true, retryAfterMs: 0 });
    now += 200;
    expect(await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).toEqual({ allowed: false, retryAfterMs: 300 });
    now += 300;
    expect(await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).toEqual({ allowed: true, retryAfterMs: 0 });
  });

  it('refuses the 61st hit in any 60 seconds, and a refused hit does not count', async () => {
    for (let i = 0; i < 60; i++) {
      expect((await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).allowed).toBe(true);
      now += 500;
    }
    // first hit at 1_000_000, now = 1_030_000: it leaves the window at 1_060_000
    expect(await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).toEqual({ allowed: false, retryAfterMs: 30_000 });
    now += 29_999;
    expect((await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).allowed).toBe(false);
    now += 1;
    expect((await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).allowed).toBe(true);
  });

  it('is a sliding window, not a fixed one: a burst at a minute boundary stays within 60', async () => {
    now = 60_000 * 100 - 30_000;
    for (let i = 0; i < 60; i++) {
      await store.hit([{ bucket: 's1', rules: [{ limit: 60, windowMs: 60_000 }] }]);
      now += 400;
    }
    now = 60_000 * 100 + 1; // a fixed window would have reset here
    expect((await store.hit([{ bucket: 's1', rules: [{ limit: 60, windowMs: 60_000 }] }])).allowed).toBe(false);
  });

  it('keeps buckets apart', async () => {
    expect((await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).allowed).toBe(true);
    expect((await store.hit([{ bucket: 's2', rules: INSERT_COIN }])).allowed).toBe(true);
    expect((await store.hit([{ bucket: 's1', rules: INSERT_COIN }])).allowed).toBe(false);
  });

  it('counts several buckets in all or none', async () => {
    const perSession = (id: string) => ({ bucket: `session:${id}`, rules: [{ limit: 5, windowMs: 60_000 }] });
    const perPlayer = { bucket: 'player:p1', rules: [{ limit: 2, windowMs: 60_000 }] };
    expect((await store.hit([perSession('a'), perPlayer])).allowed).toBe(true);
    expect((await store.hit([perSession('b'), perPlayer])).allowed).toBe(true);
    // refused per player: session c's allowance stays untouched
    expect((await store.hit([perSession('c'), perPlayer])).allowed).toBe(false);
    for (let i = 0; i < 5; i++) expect((await store.hit([perSession('c')])).allowed).toBe(true);
    expect((await store.hit([perSession('c')])).allowed).toBe(false);
  });
});

describe('FallbackRateLimitStore', () => {
  it('counts locally while the shared store fails, and returns to it once it answers', async () => {
    let down = true;
    const shared = new MemoryRateLimitStore();
    const primary: RateLimitStore = {
      hit: (limits) => (down ? Promise.reject(new Error('Connection is closed.')) : shared.hit(limits)),
      close: () => shared.close(),
    };
    const switches: boolean[] = [];
    const store = new FallbackRateLimitStore(primary, new MemoryRateLimitStore(), (failing) => switches.push(failing));
    const limits = [{ bucket: 's1', rules: [{ limit: 1, windowMs: 60_000 }] }];
    expect((await store.hit(limits)).allowed).toBe(true);
    expect((await store.hit(limits)).allowed).toBe(false);
    down = false;
    expect((await store.hit(limits)).allowed).toBe(true);
    expect((await store.hit(limits)).allowed).toBe(false);
    expect(switches).toEqual([true, false]);
    await store.close();
  });
});
