import Redis from 'ioredis';
import { TestApp } from '../support/app';
import { createDeveloper, createWorldApp, publishGame, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { RedisServer, startRedisServer } from '../support/redis-server';

/**
 * The Redis storage of the limits (REDIS_URL) on a `redis-server` this test starts, stops and
 * starts again (never the machine's shared one): atomic counting, what is kept in Redis, and an
 * outage (issue 14: in-process counters meanwhile, /health/ready says so, nothing fails, shared
 * counting resumes).
 */
describe('rate limits on Redis', () => {
  let redis: RedisServer;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startRedisServer();
    t = await createWorldApp({ env: { REDIS_URL: redis.url, RATE_LIMIT_LOGIN_PER_EMAIL: '10/900' } });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  /** A short-lived client, so that a restarted server is simply connected to again. */
  async function inRedis<T>(work: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      return await work(client);
    } finally {
      client.disconnect();
    }
  }

  async function counters(): Promise<string> {
    return (await t.http().get('/health/ready').expect(200)).body.details.rateLimits;
  }

  async function waitForCounters(expected: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await counters()) !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await counters()).toBe(expected);
  }

  it('checks exactly 10 of 35 parallel wrong passwords against a limit of 10 (one Lua script checks and counts)', async () => {
    const player = await signUpPlayer(t);
    const statuses = (await Promise.all(Array.from({ length: 35 }, () => t.http().post('/auth/login').send({ email: player.email, password: 'wrong' })))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('keeps no e-mail or client address in Redis: keys name the limit and a hash of what it counts per', async () => {
    const email = `private-${Date.now()}@example.test`;
    await t.http().post('/auth/login').send({ email, password: 'wrong' }).expect(401);
    const keys = await inRedis((client) => client.keys('*'));
    expect(keys).toEqual(expect.arrayContaining([expect.stringMatching(/^rl:login-per-email:\{[0-9a-f]{32}\}$/), expect.stringMatching(/^rl:login-per-address:\{[0-9a-f]{32}\}$/)]));
    for (const key of keys) {
      expect(key).toMatch(/^rl:[a-z-]+:\{[0-9a-f]{32}(?:[0-9a-f]{32})?\}$/);
      expect(key).not.toContain('example.test');
      expect(key).not.toContain('127.0.0.1');
    }
  });

  it('survives an outage: in-process counters while Redis is down, /health/ready says so, shared counting resumes when it is back', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const { sessionId } = await startSession(t, player, game.slug);
    const insert = () => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey() });
    const insertCoinKeys = () => inRedis((client) => client.keys('rl:insert-coin-burst:*'));

    expect(await counters()).toBe('redis');
    await insert().expect(200);
    expect((await insert().expect(429)).body.error).toBe('RATE_LIMITED');
    expect(await insertCoinKeys()).toHaveLength(1);

    await redis.stop();
    await waitForCounters('in-process (Redis unreachable)');
    // Still limited, now by this instance's own counters; nothing answers 5xx.
    t.clock.advance(600);
    await insert().expect(200);
    expect((await insert().expect(429)).body.error).toBe('RATE_LIMITED');
    await t.http().post('/auth/login').send({ email: player.email, password: player.password }).expect(200);

    await redis.start();
    await waitForCounters('redis');
    expect(await insertCoinKeys()).toHaveLength(0); // a fresh, empty server
    t.clock.advance(600);
    await insert().expect(200);
    expect(await insertCoinKeys()).toHaveLength(1);
    expect((await insert().expect(429)).body.error).toBe('RATE_LIMITED');
    const balance = await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200);
    expect(balance.body.balance).toBe(7);
  });
});
