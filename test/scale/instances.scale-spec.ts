import { existsSync } from 'node:fs';
import request from 'supertest';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { createTestDatabase, testPool } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { MAIN, ServiceProcess, startService } from '../support/process';

/**
 * Three service processes on one PostgreSQL and one Redis (CONTRACT §12, §7, §16.31) under
 * concurrent load: rate limits are counted across instances, an idempotency key sent to different
 * instances at once is applied once, and the money invariants hold on what the load left.
 */
const figures = { requests: 0 };
afterAll(() => console.log(`scale: ${figures.requests} requests over 3 instances`));

type Player = SignedUpUser & { playerId: string; sessionId: string };

describe('three instances, one PostgreSQL, one Redis', () => {
  let services: ServiceProcess[] = [];
  let t: TestApp;
  let slug: string;
  let owner: { cookie: string };
  const COINS_PER_CREDIT = 2;

  const post = (instance: number, path: string, cookie: string, body: unknown) => {
    figures.requests += 1;
    return request(services[instance % services.length]!.url).post(path).set('Cookie', cookie).send(body as object);
  };

  async function player(funds: number): Promise<Player> {
    const user = await signUpVerifiedPlayer(t);
    if (funds > 0) await fundPlayer(t, user, funds);
    return { ...user, sessionId: (await startSession(t, user, slug)).sessionId };
  }

  async function balanceOf(playerId: string): Promise<number> {
    const { rows } = await t.db.query<{ b: string }>(
      'SELECT balance_after AS b FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 ORDER BY seq DESC LIMIT 1',
      [playerId],
    );
    return Number(rows[0]?.b ?? 0);
  }

  beforeAll(async () => {
    if (!process.env.REDIS_URL) throw new Error('REDIS_URL is required: the several-instance suite shares rate-limit counters through Redis');
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm run test:scale builds it first');
    const databaseUrl = await createTestDatabase();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      RATE_LIMIT_LOGIN_PER_EMAIL: '5/60',
      RATE_LIMIT_DEVELOPER_PER_KEY: '5/60',
      // Every player signs up from 127.0.0.1, and the shared Redis keeps counting across runs.
      RATE_LIMIT_SIGNUP_PER_ADDRESS: '1000000/3600',
      RATE_LIMIT_MAIL_PER_ADDRESS: '1000000/3600',
    };
    // All three start at the same moment (admin bootstrap and the PlayerRef secret must agree).
    services = await Promise.all([startService(env), startService(env), startService(env)]);
    const db = testPool(databaseUrl);
    let next = 0;
    // The factories' requests go round-robin over the instances, as behind a load balancer.
    t = { http: () => request(services[next++ % 3]!.url), db, databaseUrl, app: undefined as never, clock: undefined as never, close: async () => undefined };
    owner = await createDeveloper(t);
    slug = (await publishGame(t, owner, { coinsPerCredit: COINS_PER_CREDIT })).slug;
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all(services.map((s) => s.stop('SIGTERM')));
    await t?.db.end();
    expect(codes).toEqual(services.map(() => 0));
  });

  it('applies one idempotency key once when it reaches all three instances at the same moment', async () => {
    const players = await Promise.all([player(20), player(20), player(20), player(20)]);
    for (const p of players) {
      const key = idempotencyKey('same');
      const answers = await Promise.all([0, 1, 2, 0, 1, 2].map((i) => post(i, `/api/play/sessions/${p.sessionId}/insert-coin`, p.cookie, { idempotencyKey: key })));
      for (const res of answers) expect(res.status).toBe(200);
      expect(answers.filter((r) => r.body.replayed === false)).toHaveLength(1);
      expect(new Set(answers.map((r) => r.body.insertionId)).size).toBe(1);
      expect(await balanceOf(p.playerId)).toBe(20 - COINS_PER_CREDIT);
    }
  });

  it('counts the insert-coin limit (1 per 500 ms per play session) across instances', async () => {
    const p = await player(50);
    const answers = await Promise.all([0, 1, 2].map((i) => post(i, `/api/play/sessions/${p.sessionId}/insert-coin`, p.cookie, { idempotencyKey: idempotencyKey('burst') })));
    // In-process counters would let one request through per instance; shared counters let one through in all.
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(await balanceOf(p.playerId)).toBe(50 - COINS_PER_CREDIT);
  });

  it('counts the developer limit per API key across instances', async () => {
    const key = (await t.http().post('/api/portal/keys').set('Cookie', owner.cookie).send({ kind: 'test', name: 'limited' }).expect(201)).body.key as string;
    const { sessionId } = await player(0);
    const statuses = [];
    for (let i = 0; i < 9; i++) {
      figures.requests += 1;
      statuses.push((await request(services[i % 3]!.url).get(`/api/v1/sessions/${sessionId}`).set('Authorization', `Bearer ${key}`)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429]);
  });

  it('counts the login limit per e-mail across instances', async () => {
    const user = await signUpVerifiedPlayer(t);
    const answers = [];
    for (let i = 0; i < 9; i++) {
      figures.requests += 1;
      answers.push(await request(services[i % 3]!.url).post('/auth/login').send({ email: user.email, password: 'wrong-password-1' }));
    }
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429]);
  });

  it('keeps every wallet and the money invariants exact under concurrent load spread over the instances', async () => {
    const players = await Promise.all(Array.from({ length: 12 }, () => player(40)));
    const charged = players.map(() => new Set<string>());
    const until = Date.now() + 5000;
    await Promise.all(
      players.map(async (p, index) => {
        let instance = index;
        while (Date.now() < until) {
          const key = idempotencyKey('load');
          const res = await post(instance++, `/api/play/sessions/${p.sessionId}/insert-coin`, p.cookie, { idempotencyKey: key });
          expect([200, 402, 429]).toContain(res.status);
          if (res.status === 200) {
            charged[index]!.add(res.body.insertionId);
            // A client that lost the answer retries on another instance: the same insertion comes back.
            const retry = await post(instance++, `/api/play/sessions/${p.sessionId}/insert-coin`, p.cookie, { idempotencyKey: key });
            expect(retry.body).toEqual({ ...res.body, replayed: true });
            const score = await post(instance++, `/api/play/sessions/${p.sessionId}/score`, p.cookie, { score: index * 1000 + charged[index]!.size, idempotencyKey: idempotencyKey('s') });
            expect([200, 429]).toContain(score.status);
          }
          await new Promise((r) => setTimeout(r, 520));
        }
      }),
    );
    for (const [index, p] of players.entries()) {
      const { rows } = await t.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM insertions WHERE play_session_id = $1', [p.sessionId]);
      expect(rows[0]!.n).toBe(charged[index]!.size);
      expect(await balanceOf(p.playerId)).toBe(40 - COINS_PER_CREDIT * charged[index]!.size);
    }
    expect(charged.reduce((n, s) => n + s.size, 0)).toBeGreaterThan(players.length);
    const report = await checkInvariants(t.db);
    expect(report.violations).toEqual([]);
  }, 60_000);
});
