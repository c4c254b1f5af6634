import { existsSync } from 'node:fs';
import type { Pool } from 'pg';
import request from 'supertest';
import type { TestApp } from '../support/app';
import { createTestDatabase, testPool } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, publishGame, signUpPlayer, signUpVerifiedPlayer, uniqueEmail } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { MAIN, ServiceProcess, startService } from '../support/process';

interface Timed {
  what: string;
  status: number;
  ms: number;
  startedAt: number;
}

async function timed(what: string, send: () => PromiseLike<{ status: number }>): Promise<Timed> {
  const startedAt = performance.now();
  const { status } = await send();
  return { what, status, ms: performance.now() - startedAt, startedAt };
}

/**
 * Issue 14's acceptance: 300 sign-ups sent at once from one address while another user plays.
 * The service runs as a real process with its default limits and its own libuv pool sizing
 * (src/threadpool.ts). The player's requests all succeed with p99 under 1 s; the flooder gets
 * 429 with Retry-After. (The only timing bound in the suite: the issue's own, kept generous for a
 * loaded 2-core machine.)
 */
describe('a sign-up flood from one address while another user plays', () => {
  let service: ServiceProcess;
  let db: Pool;
  let t: TestApp;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    const databaseUrl = await createTestDatabase();
    // Production's password cost: the flood must be as expensive as a real one.
    service = await startService({ DATABASE_URL: databaseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, PASSWORD_HASH_COST: 'owasp' });
    db = testPool(databaseUrl);
    t = { http: () => request(service.url), db, databaseUrl, app: undefined as never, clock: undefined as never, close: async () => undefined };
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    expect(await service?.stop('SIGTERM')).toBe(0);
  });

  it('serves the player (all requests succeed, p99 under 1 s) and answers the flooder 429 with Retry-After', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 100);
    // One fresh play session per round: the player stays within insert-coin's 1 per 500 ms without pausing.
    const sessions: string[] = [];
    for (let i = 0; i < 40; i++) sessions.push((await startSession(t, player, game.slug)).sessionId);

    let floodEnded = Infinity;
    const flood = Promise.all(
      Array.from({ length: 300 }, () =>
        fetch(`${service.url}/auth/signup`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: uniqueEmail('flood'), password: 'flood-password-1', displayName: 'Flood' }),
        }).then(async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> })),
      ),
    ).then((answers) => {
      floodEnded = performance.now();
      return answers;
    });

    const play = (async () => {
      const answers: Timed[] = [];
      const post = (path: string, body?: object) => {
        const req = t.http().post(path).set('Cookie', player.cookie);
        return body ? req.send(body) : req;
      };
      for (const sessionId of sessions) {
        answers.push(await timed('insert-coin', () => post(`/api/play/sessions/${sessionId}/insert-coin`, { idempotencyKey: idempotencyKey('flood') })));
        answers.push(await timed('score', () => post(`/api/play/sessions/${sessionId}/score`, { score: answers.length, idempotencyKey: idempotencyKey('flood') })));
        answers.push(await timed('heartbeat', () => post(`/api/play/sessions/${sessionId}/heartbeat`)));
      }
      return answers;
    })();

    const [floodAnswers, played] = await Promise.all([flood, play]);

    // The player played through the flood, not after it: its first request was answered, and the
    // next one sent, while flood requests were still waiting for their answers. (How many more fit
    // in depends on the machine's speed: 4-5 on a quiet CI machine, more under load.)
    const sentDuringFlood = played.filter((a) => a.startedAt < floodEnded).length;
    expect(sentDuringFlood).toBeGreaterThanOrEqual(2);
    expect(played.filter((a) => a.status !== 200)).toEqual([]);
    const latencies = played.map((a) => a.ms).sort((a, b) => a - b);
    const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
    expect(p99).toBeLessThan(1000);

    const statuses = floodAnswers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    // RATE_LIMIT_SIGNUP_PER_ADDRESS's default: 30 an hour, two of them used by the developer and the player
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(28);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(272);
    for (const refused of floodAnswers.filter((a) => a.status === 429)) {
      expect(refused.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    console.log(`sign-up flood: ${statuses.filter((s) => s === 201).length} signed up, ${statuses.filter((s) => s === 429).length} refused; player p99 ${p99.toFixed(0)} ms over ${played.length} requests, ${sentDuringFlood} sent during the flood`);
  }, 120_000);
});

/**
 * Issue 26 item 9's probe: 300 sign-ups at once with the sign-up limits lifted (as from many
 * addresses), so that they all reach password hashing, while a bystander logs in 16 times. Today's
 * defaults (PASSWORD_HASH_CONCURRENCY half the cores, PASSWORD_HASH_QUEUE 100) and production's
 * cost. Before the lanes the bystander's p95 was 3 s and 1 login in 16 answered 503; now every
 * login answers 200 and waits only for the hash running when it came. The figure is printed (p95
 * about 2 s, median 0.3 s on the 2-core machine under a load average of 11, a hash taking 0.4 s);
 * the bound is loose on purpose: what fails here is a 503 (3 of 16 logins before the lanes).
 */
describe('a sign-up flood that reaches password hashing while a bystander logs in', () => {
  let service: ServiceProcess;
  let db: Pool;
  let t: TestApp;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    const databaseUrl = await createTestDatabase();
    service = await startService({
      DATABASE_URL: databaseUrl,
      PASSWORD_HASH_COST: 'owasp',
      RATE_LIMIT_SIGNUP_PER_ADDRESS: '1000000/3600',
      RATE_LIMIT_SIGNUP_GLOBAL: '1000000/60',
      RATE_LIMIT_MAIL_PER_ADDRESS: '1000000/3600',
      RATE_LIMIT_MAIL_GLOBAL: '1000000/3600',
    });
    db = testPool(databaseUrl);
    t = { http: () => request(service.url), db, databaseUrl, app: undefined as never, clock: undefined as never, close: async () => undefined };
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    expect(await service?.stop('SIGTERM')).toBe(0);
  });

  it('answers every login 200 (p95 printed) while the sign-ups beyond their queue answer 503', async () => {
    const bystander = await signUpPlayer(t);

    let floodEnded = Infinity;
    let answered = 0;
    let floodIn!: () => void;
    const floodArrived = new Promise<void>((resolve) => (floodIn = resolve));
    const flood = Promise.all(
      Array.from({ length: 300 }, () =>
        fetch(`${service.url}/auth/signup`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: uniqueEmail('flood'), password: 'flood-password-1', displayName: 'Flood' }),
        }).then((res) => {
          if (++answered === 150) floodIn();
          return res.status;
        }),
      ),
    ).then((statuses) => {
      floodEnded = performance.now();
      return statuses;
    });

    const logins = (async () => {
      // The bystander comes once the flood is in: half of it answered, most of that the 503s of a
      // full sign-up lane, the rest waiting in it. Measured is the wait for hashing, not the
      // arrival of 300 connections at once (which held a first login up to 4 s, hashing or not).
      await floodArrived;
      const answers: Timed[] = [];
      for (let i = 0; i < 16; i++) {
        answers.push(await timed('login', () => t.http().post('/auth/login').send({ email: bystander.email, password: bystander.password })));
      }
      return answers;
    })();

    const [statuses, answers] = await Promise.all([flood, logins]);

    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
    const sentDuringFlood = answers.filter((a) => a.startedAt < floodEnded).length;
    expect(sentDuringFlood).toBeGreaterThanOrEqual(8);
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    // the flood did overflow the sign-up lane (1 running and 100 waiting on this 2-core machine)
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
    const p95 = latencies[Math.ceil(latencies.length * 0.95) - 1]!;
    expect(p95).toBeLessThan(5000);
    console.log(`sign-up flood at hashing: ${statuses.filter((s) => s === 201).length} signed up, ${statuses.filter((s) => s === 503).length} answered 503; bystander login p95 ${p95.toFixed(0)} ms, median ${latencies[7]!.toFixed(0)} ms over 16 logins, ${sentDuringFlood} sent during the flood`);
  }, 120_000);
});
