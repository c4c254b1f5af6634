import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import request from 'supertest';
import { freePort } from '../../src/database/embedded-postgres';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { MAIN, PostgresProcess, ServiceProcess, startPostgresProcess, startService } from '../support/process';

/**
 * Faults with real PostgreSQL and real processes (CONTRACT §16.28–§16.30): the database restarted
 * under a stream of insert-coin requests, an exhausted pool, a statement held by a lock, SIGTERM
 * under load. Clients retry every unanswered request with its same idempotency key; each intended
 * insertion must be charged exactly once, and the invariant checker must pass on what is left.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const figures = { requests: 0, faults: 0, unavailable: 0, replays: 0, networkErrors: 0 };

afterAll(() => {
  // The closing note of issue 8 reports these counts.
  console.log(`faults: ${figures.requests} requests, ${figures.faults} faults injected, ${figures.unavailable} answered 503, ${figures.replays} replays, ${figures.networkErrors} network errors`);
});

/** A TestApp view of a service process, so the API factories can build its world. */
function processApp(service: ServiceProcess, db: Pool): TestApp {
  return { http: () => request(service.url), db, databaseUrl: '', app: undefined as never, clock: undefined as never, close: async () => undefined };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  ms: number;
}

async function post(url: string, cookie: string, body: unknown): Promise<Answer | 'network-error'> {
  const started = Date.now();
  figures.requests += 1;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
  } catch {
    figures.networkErrors += 1;
    return 'network-error';
  }
}

/** True when a GET on a fresh connection (no keep-alive reuse) is answered. */
function answersOnNewConnection(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

describe('database restart during a stream of insert-coin requests', () => {
  let dir: string;
  let port: number;
  let database: PostgresProcess | undefined;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    dir = await mkdtemp(join(tmpdir(), 'arcade-fault-pg-'));
    port = await freePort();
    database = await startPostgresProcess(join(dir, 'data'), port);
  }, 60_000);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database?.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers fast flat 503s during the outage, recovers by itself, and charges each intended insertion once', async () => {
    service = await startService({
      DATABASE_URL: database!.url,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DB_ACQUIRE_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      // A child process's rate-limit clock cannot be moved: a 1 ms burst window (test runs only)
      // lets a retried key go again at once instead of sleeping through 500 ms.
      INSERT_COIN_BURST_MS: '1',
    });
    let db = new Pool({ connectionString: database!.url, max: 2 });
    const t = processApp(service, db);
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const players = [];
    for (let i = 0; i < 4; i++) {
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 500);
      players.push({ ...player, sessionId: (await startSession(t, player, game.slug)).sessionId });
    }
    await db.end();

    // Each client buys one credit after another; an unanswered or refused attempt is retried with the same key.
    let streaming = true;
    const outage = { active: false };
    const unavailableDuringOutage: Answer[] = [];
    const keysOf = players.map(() => [] as { key: string; insertionId: string }[]);
    const giveUp = Date.now() + 60_000;
    const clients = players.map(async (player, index) => {
      while (streaming) {
        const key = idempotencyKey(`fault${index}`);
        for (;;) {
          if (Date.now() > giveUp) throw new Error(`key ${key} still unanswered after 60 s`);
          const answer = await post(`${service!.url}/api/play/sessions/${player.sessionId}/insert-coin`, player.cookie, { idempotencyKey: key });
          if (answer !== 'network-error') {
            if (answer.status === 200) {
              if (answer.body.replayed) figures.replays += 1;
              keysOf[index]!.push({ key, insertionId: answer.body.insertionId as string });
              break;
            }
            if (answer.status === 503) {
              figures.unavailable += 1;
              if (outage.active) unavailableDuringOutage.push(answer);
              expect(answer.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
              expect(answer.retryAfter).toBe('1');
            } else {
              throw new Error(`unexpected answer ${answer.status} ${JSON.stringify(answer.body)}`);
            }
          }
          // The database is away (503 or no answer): try again shortly.
          await sleep(200);
        }
        // A player's pace between credits (at most ~45 in the stream: within the minute rule's 60 per play session).
        await sleep(400);
      }
    });

    await sleep(2000);
    await database!.stop();
    figures.faults += 1;
    outage.active = true;
    await sleep(1500);
    const ready = await fetch(`${service.url}/health/ready`, { signal: AbortSignal.timeout(8000) });
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    await sleep(1500);

    database = await startPostgresProcess(join(dir, 'data'), port);
    const back = Date.now();
    outage.active = false;
    let recoveredAfter = -1;
    while (Date.now() - back < 15_000) {
      const res = await fetch(`${service.url}/health/ready`).catch(() => undefined);
      if (res?.status === 200) {
        recoveredAfter = Date.now() - back;
        break;
      }
      await sleep(200);
    }
    // Recovered without a restart of the service, within CONTRACT §16.28's 10 seconds.
    expect(recoveredAfter).toBeGreaterThanOrEqual(0);
    expect(recoveredAfter).toBeLessThanOrEqual(10_000);
    await sleep(2000);
    streaming = false;
    await Promise.all(clients);

    // The outage was felt, and every answer during it came quickly (CONTRACT §16.28: within 5 s).
    expect(unavailableDuringOutage.length).toBeGreaterThan(0);
    expect(Math.max(...unavailableDuringOutage.map((a) => a.ms))).toBeLessThanOrEqual(5000);

    db = new Pool({ connectionString: database.url, max: 2 });
    try {
      for (const [index, player] of players.entries()) {
        const keys = keysOf[index]!;
        expect(new Set(keys.map((k) => k.insertionId)).size).toBe(keys.length);
        const rows = await db.query<{ id: string }>('SELECT id FROM insertions WHERE play_session_id = $1', [player.sessionId]);
        expect(rows.rows.map((r) => r.id).sort()).toEqual(keys.map((k) => k.insertionId).sort());
        const balance = await db.query<{ balance: string }>(
          'SELECT balance_after AS balance FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 ORDER BY seq DESC LIMIT 1',
          [player.playerId],
        );
        expect(Number(balance.rows[0]!.balance)).toBe(500 - keys.length);
      }
      const report = await checkInvariants(db);
      expect(report.violations).toEqual([]);
      expect(report.totals.insertions).toBe(keysOf.flat().length);
    } finally {
      await db.end();
    }
    expect(await service.stop('SIGTERM')).toBe(0);
    service = undefined;
  }, 120_000);
});

describe('pool exhaustion and slow statements', () => {
  let t: TestApp;
  let blocker: Client;

  beforeAll(async () => {
    t = await createWorldApp({ env: { DB_POOL_SIZE: '2', DB_ACQUIRE_TIMEOUT_MS: '500', DB_STATEMENT_TIMEOUT_MS: '1000' } });
    blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
  }, 60_000);
  afterAll(async () => {
    await blocker.end();
    await t.close();
  });

  it('answers 503 with Retry-After within a bounded time when statements are held and the pool is exhausted, then charges the retried key once', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const players = [];
    for (let i = 0; i < 3; i++) {
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 10);
      players.push({ ...player, sessionId: (await startSession(t, player, game.slug)).sessionId });
    }

    // A lock held elsewhere stalls every debit: each insert holds a pooled connection until its statement times out.
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE wallets IN ACCESS EXCLUSIVE MODE');
    figures.faults += 1;
    const keys = players.map(() => idempotencyKey('held'));
    const started = Date.now();
    const answers = await Promise.all(
      players.map((p, i) => {
        figures.requests += 1;
        return t.http().post(`/api/play/sessions/${p.sessionId}/insert-coin`).set('Cookie', p.cookie).send({ idempotencyKey: keys[i] });
      }),
    );
    const elapsed = Date.now() - started;
    await blocker.query('ROLLBACK');

    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      expect(res.headers['retry-after']).toBe('1');
      figures.unavailable += 1;
    }
    // Statement timeout (1 s) plus acquire timeout (0.5 s), far below CONTRACT §16.29's 10 s.
    expect(elapsed).toBeLessThan(5000);

    // Past the burst window of the refused attempts on the limits' clock, instead of sleeping through it.
    t.clock.advance(600);
    for (const [i, p] of players.entries()) {
      figures.requests += 2;
      const first = await t.http().post(`/api/play/sessions/${p.sessionId}/insert-coin`).set('Cookie', p.cookie).send({ idempotencyKey: keys[i] });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ replayed: false, balance: 9 });
      const again = await t.http().post(`/api/play/sessions/${p.sessionId}/insert-coin`).set('Cookie', p.cookie).send({ idempotencyKey: keys[i] });
      expect(again.body).toEqual({ ...first.body, replayed: true });
    }
    const report = await checkInvariants(t.db);
    expect(report.violations).toEqual([]);
    expect(report.totals.insertions).toBe(3);
  }, 60_000);

  it('answers a slow read (a held lock past the statement timeout) with 503 and serves again once it is released', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE wallets IN ACCESS EXCLUSIVE MODE');
    figures.faults += 1;
    figures.requests += 2;
    const slow = await t.http().get('/api/me').set('Cookie', player.cookie);
    await blocker.query('ROLLBACK');
    expect(slow.status).toBe(503);
    expect(slow.body.error).toBe('SERVICE_UNAVAILABLE');
    const fine = await t.http().get('/api/me').set('Cookie', player.cookie);
    expect(fine.status).toBe(200);
    expect(fine.body.balance).toBe(5);
  }, 30_000);
});

describe('SIGTERM under load', () => {
  it('finishes requests in flight, refuses new connections, and exits 0', async () => {
    const setup = await createWorldApp();
    const dev = await createDeveloper(setup);
    const game = await publishGame(setup, dev, { coinsPerCredit: 1 });
    const players = [];
    for (let i = 0; i < 4; i++) {
      const player = await signUpVerifiedPlayer(setup);
      await fundPlayer(setup, player, 5);
      players.push({ ...player, sessionId: (await startSession(setup, player, game.slug)).sessionId });
    }
    await setup.app.close();

    const service = await startService({ DATABASE_URL: setup.databaseUrl, DB_STATEMENT_TIMEOUT_MS: '8000' });
    const blocker = new Client({ connectionString: setup.databaseUrl });
    await blocker.connect();
    try {
      // Hold every debit so that the requests are surely in flight when SIGTERM arrives.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE wallets IN ACCESS EXCLUSIVE MODE');
      const inFlight = players.map((p) => post(`${service.url}/api/play/sessions/${p.sessionId}/insert-coin`, p.cookie, { idempotencyKey: idempotencyKey('drain') }));
      await sleep(500);
      service.child.kill('SIGTERM');
      figures.faults += 1;
      // A new connection is refused once the listener has closed.
      let refused = false;
      for (let i = 0; i < 20 && !refused; i++) {
        await sleep(100);
        refused = !(await answersOnNewConnection(`${service.url}/health/live`));
      }
      expect(refused).toBe(true);
      await blocker.query('COMMIT');

      const answers = await Promise.all(inFlight);
      for (const answer of answers) {
        expect(answer).not.toBe('network-error');
        expect((answer as Answer).status).toBe(200);
        expect((answer as Answer).body).toMatchObject({ coinsSpent: 1, balance: 4, replayed: false });
      }
      expect(await service.exited).toBe(0);
      const report = await checkInvariants(setup.db);
      expect(report.violations).toEqual([]);
      expect(report.totals.insertions).toBe(4);
    } finally {
      await blocker.end();
      await service.stop('SIGKILL');
      await setup.db.end();
    }
  }, 90_000);
});
