import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Pool } from 'pg';
import request from 'supertest';
import { freePort } from '../../src/database/embedded-postgres';
import type { TestApp } from '../support/app';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { MAIN, PostgresProcess, ServiceProcess, startPostgresProcess, startService } from '../support/process';

/**
 * Issue 14's outage test: two service processes on a PostgreSQL and a Redis that this test starts
 * and owns, under insert-coin and score traffic. PostgreSQL is restarted three times (the second
 * time with connections held in the middle of a transaction) and Redis once. No instance may exit;
 * every answer is 2xx, 4xx or 503 in the flat error shape (503 with Retry-After: 1, within 5 s);
 * readiness follows the database; the service recovers by itself; and afterwards the invariant
 * checker is clean and every player's ledger adds up to exactly the insertions they were answered.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FUNDS = 1000;
const PLAYERS = 6;

interface Answer {
  path: string;
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  ms: number;
  at: number;
  instance: number;
}

const answers: Answer[] = [];
const problems: string[] = [];
let networkErrors = 0;

async function send(url: string, instance: number, path: string, cookie: string, body: unknown): Promise<Answer | undefined> {
  const started = Date.now();
  try {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      problems.push(`${path}: not JSON (${res.status}): ${text.slice(0, 120)}`);
    }
    const answer = { path, status: res.status, body: parsed, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started, at: started, instance };
    answers.push(answer);
    return answer;
  } catch (error) {
    networkErrors += 1;
    problems.push(`${path}: no answer from instance ${instance} (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

/** A Redis of our own, on a port of our own, keeping nothing on disk. */
class RedisProcess {
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      if (await this.pong()) return;
      await sleep(100);
    }
    throw new Error('redis-server did not start');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  private pong(): Promise<boolean> {
    return new Promise((resolvePong) => {
      const socket = createConnection({ port: this.port, host: '127.0.0.1' });
      socket.once('error', () => resolvePong(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        resolvePong(data.toString().startsWith('+PONG'));
        socket.destroy();
      });
    });
  }
}

function checkInvariantsCli(databaseUrl: string): Promise<{ code: number; out: string }> {
  return new Promise((resolveRun) => {
    execFile(process.execPath, [resolve(__dirname, '../../dist/src/ops/check-invariants.js')], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl } }, (error, stdout, stderr) =>
      resolveRun({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout + stderr }),
    );
  });
}

describe('two instances through PostgreSQL and Redis outages', () => {
  let dir: string;
  let pgPort: number;
  let database: PostgresProcess | undefined;
  let redis: RedisProcess;
  let services: ServiceProcess[] = [];
  let stopped: ServiceProcess[] = [];

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm run test:chaos builds it first');
    dir = await mkdtemp(join(tmpdir(), 'arcade-chaos-'));
    pgPort = await freePort();
    database = await startPostgresProcess(join(dir, 'pg'), pgPort);
    redis = new RedisProcess(await freePort());
    await redis.start();
  }, 60_000);

  afterAll(async () => {
    // A surprise (500) is logged by the service with its stack: show it with the failure.
    for (const s of [...services, ...stopped]) {
      const surprises = s.output().split('\n').filter((l) => l.includes('"level":50') && !/request errored|Database unavailable/.test(l));
      if (answers.some((a) => a.status >= 500 && a.status !== 503) && surprises.length) console.log(surprises.join('\n'));
    }
    if (process.env.CHAOS_DEBUG) {
      for (const s of [...services, ...stopped]) console.log(s.output().split('\n').filter((l) => !/request errored|Database unavailable/.test(l)).join('\n'));
      console.log([...new Set(answers.filter((a) => a.status >= 400).map((a) => `${a.status} ${String(a.body.message)}`))].join('\n'));
    }
    await Promise.all(services.map((s) => s.stop('SIGKILL')));
    await redis?.stop();
    await database?.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    const byStatus: Record<number, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    console.log(`chaos: ${answers.length} answers ${JSON.stringify(byStatus)}, ${networkErrors} without an answer${problems.length ? `; problems: ${problems.slice(0, 10).join(' | ')}` : ''}`);
  });

  it('keeps both instances up, answers every request properly, recovers by itself and loses or doubles no money', async () => {
    const env = {
      DATABASE_URL: database!.url,
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DB_ACQUIRE_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      // The services' rate-limit clocks cannot be moved from here: a 1 ms burst window (test runs
      // only) and lifted score limits let a retried key go again at once, so a 429 is a failure
      // instead of a wait through its window.
      INSERT_COIN_BURST_MS: '1',
      RATE_LIMIT_SCORE_PER_SESSION: '100000/60',
      RATE_LIMIT_SCORE_PER_PLAYER: '100000/60',
    };
    services = await Promise.all([startService(env), startService(env)]);
    const exits: string[] = [];
    services.forEach((s, i) => void s.exited.then((code) => exits.push(`instance ${i} exited with ${code}`)));

    let next = 0;
    const setupPool = new Pool({ connectionString: database!.url, max: 2 });
    const t: TestApp = { http: () => request(services[next++ % 2]!.url), db: setupPool, databaseUrl: database!.url, app: undefined as never, clock: undefined as never, close: async () => undefined };
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1, maxScore: 1_000_000 });
    const players: (SignedUpUser & { playerId: string; sessionId: string })[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, FUNDS);
      players.push({ ...player, sessionId: (await startSession(t, player, game.slug)).sessionId });
    }
    await setupPool.end();

    // Each client buys a credit, then (every other client) scores it, retrying each request with its
    // same idempotency key, on alternating instances, until it is answered 200.
    let streaming = true;
    const paid = players.map(() => new Set<string>());
    const scored = players.map(() => new Set<string>());
    const deadline = Date.now() + (process.env.CHAOS_DEBUG ? 60_000 : 240_000);
    const untilOk = async (index: number, path: string, cookie: string, body: Record<string, unknown>): Promise<Answer> => {
      for (let attempt = 0; ; attempt++) {
        if (Date.now() > deadline) throw new Error(`${path} with key ${String(body.idempotencyKey)} still unanswered`);
        const instance = (index + attempt) % 2;
        const answer = await send(services[instance]!.url, instance, path, cookie, body);
        if (answer?.status === 200) return answer;
        if (answer?.status === 429) problems.push(`${path}: 429 ${String(answer.body.message)}`);
        // 503 or no answer: an outage; try again shortly.
        await sleep(250);
      }
    };
    const play = async (player: (typeof players)[number], index: number) => {
      await sleep(index * 80);
      while (streaming) {
        const coin = await untilOk(index, `/api/play/sessions/${player.sessionId}/insert-coin`, player.cookie, { idempotencyKey: idempotencyKey(`chaos${index}`) });
        paid[index]!.add(coin.body.insertionId as string);
        if (index % 2 === 0) {
          const score = await untilOk(index, `/api/play/sessions/${player.sessionId}/score`, player.cookie, {
            score: 1000 + Math.floor(Math.random() * 100_000),
            idempotencyKey: idempotencyKey(`chaos-score${index}`),
          });
          scored[index]!.add(score.body.scoreId as string);
        }
        // Under the insert-coin limit of 60 a minute per play session, retries included.
        await sleep(1200);
      }
    };
    const clients = players.map((player, index) => play(player, index).catch((error: unknown) => void problems.push(String(error))));

    const ready = async (instance: number) => (await fetch(`${services[instance]!.url}/health/ready`, { signal: AbortSignal.timeout(8000) }).catch(() => undefined))?.status;
    const live = async (instance: number) => (await fetch(`${services[instance]!.url}/health/live`, { signal: AbortSignal.timeout(8000) }).catch(() => undefined))?.status;
    const outages: { from: number; to: number }[] = [];
    const recoveries: number[] = [];

    const outage = async (label: string, stop: () => Promise<void>) => {
      const from = Date.now();
      await stop();
      await sleep(1500);
      // While the database is down: not ready (within 5 s), but alive.
      for (const instance of [0, 1]) {
        const started = Date.now();
        expect({ label, instance, ready: await ready(instance) }).toEqual({ label, instance, ready: 503 });
        expect(Date.now() - started).toBeLessThanOrEqual(5000);
        expect({ label, instance, live: await live(instance) }).toEqual({ label, instance, live: 200 });
      }
      await sleep(1500);
      database = await startPostgresProcess(join(dir, 'pg'), pgPort);
      const back = Date.now();
      outages.push({ from, to: back });
      for (const instance of [0, 1]) {
        while ((await ready(instance)) !== 200 && Date.now() - back < 15_000) await sleep(200);
      }
      recoveries.push(Date.now() - back);
    };

    try {
      await sleep(3000);
      await outage('restart 1', () => database!.stop());
      await sleep(3000);

      // Restart 2: with requests in the middle of their transactions. Held wallet rows stall every
      // insert-coin after it has claimed its key; then the server goes away under them.
      await outage('restart 2, mid-transaction', async () => {
        const blocker = new Client({ connectionString: database!.url });
        const monitor = new Client({ connectionString: database!.url });
        for (const client of [blocker, monitor]) {
          client.on('error', () => undefined);
          await client.connect();
        }
        try {
          await blocker.query('BEGIN');
          // Row locks: reads (the cookie guard's) go on; the money statement's UPDATE waits.
          await blocker.query('SELECT id FROM wallets FOR UPDATE');
          let midTransaction = 0;
          for (let i = 0; i < 50 && midTransaction === 0; i++) {
            await sleep(100);
            const { rows } = await monitor.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE application_name = 'arcade-coin-service' AND state = 'active' AND xact_start IS NOT NULL AND wait_event_type = 'Lock'
                  AND query LIKE 'WITH head AS (%UPDATE wallets SET balance = balance -%'`,
            );
            midTransaction = rows[0]!.n;
          }
          // At least one insert-coin holds its claimed key and waits inside its transaction. (Matched by
          // the money statement's start: pg_stat_activity keeps only the first track_activity_query_size
          // bytes, 1 kB, and the wallet's hash chain pushed its INSERT INTO ledger_entries past them.)
          expect(midTransaction).toBeGreaterThan(0);
        } finally {
          await monitor.end();
        }
        await database!.stop();
        await blocker.end().catch(() => undefined);
      });
      await sleep(3000);

      await outage('restart 3', () => database!.stop());
      await sleep(2000);

      // Redis goes away and comes back: limits are counted in-process meanwhile, nothing fails.
      const redisDownAt = answers.length;
      await redis.stop();
      await sleep(3000);
      await redis.start();
      await sleep(3000);
      const duringRedis = answers.slice(redisDownAt);
      expect(duringRedis.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    } finally {
      streaming = false;
      await Promise.allSettled(clients);
    }

    // No instance exited, none answered outside 2xx/4xx/503 or the flat shape, none went silent.
    expect(exits).toEqual([]);
    expect(problems).toEqual([]);
    expect(networkErrors).toBe(0);
    for (const a of answers) {
      const allowed = a.status < 300 || (a.status >= 400 && a.status < 500) || a.status === 503;
      expect({ status: a.status, allowed, body: allowed ? {} : a.body, path: a.path }).toEqual({ status: a.status, allowed: true, body: {}, path: a.path });
      if (a.status >= 400) {
        expect(a.body).toEqual(expect.objectContaining({ error: expect.any(String), message: expect.any(String) }));
        expect(JSON.stringify(a.body)).not.toMatch(/\bat .*\.js:\d+|SELECT |INSERT |UPDATE /);
      }
      if (a.status === 503) {
        expect(a.body.error).toBe('SERVICE_UNAVAILABLE');
        expect(a.retryAfter).toBe('1');
      }
    }
    // Every outage was felt, and felt quickly (CONTRACT §16.28: 503 within 5 s); back within 10 s.
    for (const { from, to } of outages) {
      const during = answers.filter((a) => a.at >= from && a.at < to && a.status === 503);
      expect(during.length).toBeGreaterThan(0);
      expect(Math.max(...during.map((a) => a.ms))).toBeLessThanOrEqual(5000);
    }
    expect(Math.max(...recoveries)).toBeLessThanOrEqual(10_000);

    // An outage is logged once (per instance), not once per connection or request.
    for (const service of services) {
      const lost = service.output().split('\n').filter((line) => line.includes('PostgreSQL connection lost')).length;
      expect(lost).toBeGreaterThanOrEqual(1);
      expect(lost).toBeLessThanOrEqual(2 * outages.length);
      expect(service.output()).not.toMatch(/Unhandled|uncaught/i);
    }

    // The money: the invariant checker is clean, and each ledger holds exactly the answered insertions.
    const check = await checkInvariantsCli(database!.url);
    expect({ code: check.code, report: check.code === 0 ? '' : check.out }).toEqual({ code: 0, report: '' });
    const db = new Pool({ connectionString: database!.url, max: 2 });
    try {
      for (const [index, player] of players.entries()) {
        const { rows: insertions } = await db.query<{ id: string }>('SELECT id FROM insertions WHERE play_session_id = $1', [player.sessionId]);
        expect(insertions.map((r) => r.id).sort()).toEqual([...paid[index]!].sort());
        const { rows } = await db.query<{ balance: string; head: string; deltas: string }>(
          `SELECT w.balance AS head,
                  (SELECT balance_after FROM ledger_entries l WHERE l.wallet_id = w.id ORDER BY seq DESC LIMIT 1) AS balance,
                  (SELECT sum(delta) FROM ledger_entries l WHERE l.wallet_id = w.id) AS deltas
             FROM wallets w WHERE w.player_id = $1`,
          [player.playerId],
        );
        const expected = String(FUNDS - paid[index]!.size);
        expect(rows[0]).toEqual({ head: expected, balance: expected, deltas: expected });
        const { rows: scores } = await db.query<{ id: string }>('SELECT id FROM scores WHERE play_session_id = $1', [player.sessionId]);
        expect(scores.map((r) => r.id).sort()).toEqual([...scored[index]!].sort());
      }
    } finally {
      await db.end();
    }
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);

    const codes = await Promise.all(services.map((s) => s.stop('SIGTERM')));
    expect(codes).toEqual([0, 0]);
    stopped = services;
    services = [];
  }, 300_000);
});
