import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { RedisRateLimitStorage } from '../../src/modules/rate-limits/rate-limit.storage';
import { TestApp } from '../support/app';
import { TestClock } from '../support/clock';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';

/**
 * CONTRACT §12: insert-coin limits are counted across all instances. Needs REDIS_URL (CI sets
 * it; locally: REDIS_URL=redis://127.0.0.1:6379). Two app instances share one database and Redis.
 * Windows pass by moving a test clock, never by sleeping.
 */
function redisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL is not set: the scale suite needs a Redis server.');
  return url;
}

describe('rate-limit storage on Redis', () => {
  let redis: Redis;
  let clock: TestClock;
  let storage: RedisRateLimitStorage;

  beforeAll(() => {
    redis = new Redis(redisUrl());
    clock = new TestClock();
    storage = new RedisRateLimitStorage(redis, clock);
  });
  afterAll(async () => storage.onApplicationShutdown());

  it('lets exactly `limit` of many concurrent hits through (check and record are one atomic script)', async () => {
    const key = `scale-test:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => storage.hit([{ key, limit: 10, ttl: 60_000 }])));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    for (const refused of results.filter((r) => !r.allowed)) {
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('is a sliding window: a refused hit is not recorded, and the oldest hit frees the slot', async () => {
    const key = `scale-test:${randomUUID()}`;
    const window = [{ key, limit: 2, ttl: 400 }];
    expect((await storage.hit(window)).allowed).toBe(true);
    clock.advance(200);
    expect((await storage.hit(window)).allowed).toBe(true);
    const refused = await storage.hit(window);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(200);
    clock.advance(refused.retryAfterMs);
    expect((await storage.hit(window)).allowed).toBe(true);
    expect((await storage.hit(window)).allowed).toBe(false);
  });

  it('records a hit in every window only when all windows allow it', async () => {
    const id = randomUUID();
    const windows = [
      { key: `scale-test:{${id}}:burst`, limit: 1, ttl: 300 },
      { key: `scale-test:{${id}}:minute`, limit: 3, ttl: 60_000 },
    ];
    const outcomes: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      outcomes.push((await storage.hit(windows)).allowed);
      clock.advance(120);
    }
    // one every 300 ms at most, three in the minute at most: refused hits do not use up the minute
    expect(outcomes.filter(Boolean)).toHaveLength(3);
    expect(await redis.zcard(`scale-test:{${id}}:minute`)).toBe(3);
  });

  it('counts several keys in all or none', async () => {
    const player = { key: `scale-test:${randomUUID()}`, limit: 1, ttl: 60_000 };
    const session = (id: string) => ({ key: `scale-test:${id}`, limit: 5, ttl: 60_000 });
    const a = randomUUID();
    const b = randomUUID();
    expect((await storage.hit([session(a), player])).allowed).toBe(true);
    expect((await storage.hit([session(b), player])).allowed).toBe(false);
    expect(await redis.zcard(session(b).key)).toBe(0);
    expect(await redis.zcard(session(a).key)).toBe(1);
  });
});

describe('insert-coin limits shared by two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let slug: string;

  beforeAll(async () => {
    const clock = new TestClock();
    a = await createWorldApp({ env: { REDIS_URL: redisUrl() }, clock });
    b = await createWorldApp({ env: { REDIS_URL: redisUrl() }, databaseUrl: a.databaseUrl, clock });
    const dev = await createDeveloper(a);
    slug = (await publishGame(a, dev, { coinsPerCredit: 1 })).slug;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function playerWithSession(coins: number) {
    const player = await signUpVerifiedPlayer(a);
    await fundPlayer(a, player, coins);
    const { sessionId } = await startSession(a, player, slug);
    const insert = (app: TestApp, key = idempotencyKey()) =>
      app.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });
    return { player, sessionId, insert };
  }

  it('an insertion on one instance makes the other answer 429 within 500 ms; a replay there is still 200', async () => {
    const { insert } = await playerWithSession(10);
    const key = idempotencyKey();
    const first = await insert(a, key).expect(200);
    const limited = await insert(b).expect(429);
    expect(limited.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const replay = await insert(b, key).expect(200);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
  });

  it('of 10 concurrent insertions spread over both instances, exactly one passes', async () => {
    const { insert, sessionId } = await playerWithSession(10);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => insert(i % 2 ? a : b)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(9);
    const rows = await a.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('the 61st attempt in a minute is refused even when the 60 were spread over both instances', async () => {
    const { insert, player } = await playerWithSession(60);
    for (let i = 0; i < 60; i++) {
      const res = await insert(i % 2 ? a : b);
      expect([i, res.status]).toEqual([i, 200]);
      a.clock.advance(520);
    }
    await fundPlayer(a, player, 5);
    expect((await insert(a).expect(429)).body.error).toBe('RATE_LIMITED');
    expect((await insert(b).expect(429)).body.error).toBe('RATE_LIMITED');
  });
});
