import { Writable } from 'node:stream';
import { Body, Controller, Get, Logger, Module, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createRootLogger } from '../../src/http/logging';
import { Public } from '../../src/http/public.decorator';
import { INVARIANT_CHECK_LOCK, InvariantCheckService } from '../../src/modules/operations';
import { CHAIN_GENESIS_SQL, chainHashSql } from '../../src/modules/wallet/ledger-append';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { familyNames, parseMetrics, Sample, valueOf } from '../support/metrics';
import { deliver, eventId, pendingPurchase } from '../support/payments';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';

const TOKEN = 'metrics-token-for-the-tests-0123';

/** Every series CONTRACT §23 names (the default process and Node.js metrics by two of theirs). */
const SERIES = [
  'http_server_request_duration_seconds',
  'process_cpu_seconds_total',
  'nodejs_eventloop_lag_seconds',
  'db_client_connections_usage',
  'db_client_connections_pending_requests',
  'arcade_insertions_total',
  'arcade_coins_spent_total',
  'arcade_purchases_total',
  'arcade_webhook_deliveries_total',
  'arcade_webhook_oldest_pending_seconds',
  'arcade_payouts_total',
  'arcade_invariant_check_ok',
];

/** Log lines written to a stream, parsed. */
function logCapture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A handler that logs after reading its JSON body and a database round trip, and one that fails unexpectedly. */
@Controller('__probe')
class ProbeController {
  private readonly logger = new Logger('Probe');

  constructor(private readonly dataSource: DataSource) {}

  @Post('log')
  @Public()
  async log(@Body() body: { note: string }): Promise<{ ok: true }> {
    await this.dataSource.query('SELECT 1');
    this.logger.warn({ note: body.note }, 'inside the handler');
    return { ok: true };
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('a surprise');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** CONTRACT §23: GET /metrics, X-Request-Id, log lines, the periodic books check. */
describe('operating it', () => {
  describe('without METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('answers 404 NOT_FOUND in the flat error shape, token or not', async () => {
      for (const auth of [undefined, `Bearer ${TOKEN}`]) {
        const req = t.http().get('/metrics');
        const res = await (auth ? req.set('Authorization', auth) : req).expect(404);
        expect(res.body).toEqual({ error: 'NOT_FOUND', message: 'No such resource.' });
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(t.app.metrics.enabled).toBe(false);
      expect(t.app.metrics.registry).toBeUndefined();
    });
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
      const res = await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return { text: res.text, samples: parseMetrics(res.text) };
    };

    beforeAll(async () => {
      t = await createWorldApp({ env: { METRICS_TOKEN: TOKEN } });
    });
    afterAll(() => t.close());

    it('answers 401 UNAUTHENTICATED without the token or with a wrong one', async () => {
      for (const auth of [undefined, 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, `Bearer  ${TOKEN}`, TOKEN]) {
        const req = t.http().get('/metrics');
        const res = await (auth === undefined ? req : req.set('Authorization', auth)).expect(401);
        expect([auth, res.body.error]).toEqual([auth, 'UNAUTHENTICATED']);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
    });

    it('holds every series §23 names, with the semantic labels', async () => {
      await t.http().get('/health/live').expect(200);
      const { text, samples } = await scrape();
      const families = familyNames(text);
      for (const name of SERIES) expect([name, families.has(name)]).toEqual([name, true]);
      expect(valueOf(samples, 'http_server_request_duration_seconds_count', { http_request_method: 'GET', http_route: '/health/live', http_response_status_code: '200' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'db_client_connections_usage', { state: 'idle', pool_name: 'primary' }) + valueOf(samples, 'db_client_connections_usage', { state: 'used', pool_name: 'primary' })).toBeGreaterThanOrEqual(1);
      expect(samples.some((s) => s.name === 'db_client_connections_pending_requests' && s.labels.pool_name === 'primary')).toBe(true);
      expect(valueOf(samples, 'db_client_connections_max', { pool_name: 'primary' })).toBe(10);
      expect(valueOf(samples, 'arcade_webhook_oldest_pending_seconds')).toBe(0);
      // No periodic check ran in this instance yet (INVARIANT_CHECK_INTERVAL_SECONDS is 0 in tests): neither 1 nor 0.
      expect(valueOf(samples, 'arcade_invariant_check_ok')).toBeNaN();
    });

    it('moves: an insert-coin raises arcade_insertions_total, the coins spent and its route\'s histogram count; a purchase counts its statuses', async () => {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev, { coinsPerCredit: 3 });
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 10);
      const { sessionId } = await startSession(t, player, game.slug);
      const route = { http_request_method: 'POST', http_route: '/api/play/sessions/:id/insert-coin', http_response_status_code: '200' };
      const before = (await scrape()).samples;
      await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('m') }).expect(200);
      // A replay is no new insertion (the burst limit's clock moved on: spec §8's 1 per 500 ms).
      t.clock.advance(600);
      const key = idempotencyKey('m');
      await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key }).expect(200);
      await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key }).expect(200);
      const after = (await scrape()).samples;
      expect(valueOf(after, 'arcade_insertions_total') - valueOf(before, 'arcade_insertions_total')).toBe(2);
      expect(valueOf(after, 'arcade_coins_spent_total') - valueOf(before, 'arcade_coins_spent_total')).toBe(6);
      expect(valueOf(after, 'http_server_request_duration_seconds_count', route) - valueOf(before, 'http_server_request_duration_seconds_count', route)).toBe(3);
      expect(valueOf(after, 'http_server_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(valueOf(after, 'http_server_request_duration_seconds_count', route));

      // A purchase: pending, then paid; the same event again moves nothing and counts nothing.
      const purchaseId = await pendingPurchase(t, player);
      const id = eventId();
      await deliver(t, 'payment.succeeded', purchaseId, id).expect(200);
      await deliver(t, 'payment.succeeded', purchaseId, id).expect(200);
      const bought = (await scrape()).samples;
      expect(['pending', 'paid', 'failed'].map((status) => valueOf(bought, 'arcade_purchases_total', { status }) - valueOf(after, 'arcade_purchases_total', { status }))).toEqual([1, 1, 0]);
    });

    it('keeps the label set small: 1,000 distinct ids and 100 unknown paths make one route label each', async () => {
      const ids = Array.from({ length: 1000 }, (_, i) => `no-such-game-${i}`);
      for (let i = 0; i < ids.length; i += 50) await Promise.all(ids.slice(i, i + 50).map((slug) => t.http().get(`/api/games/${slug}/scores`)));
      for (let i = 0; i < 100; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => t.http().get(`/nothing/here/${i + j}`).expect(404)));
      const { samples } = await scrape();
      const counts = samples.filter((s) => s.name === 'http_server_request_duration_seconds_count');
      const routes = new Set(counts.map((s) => s.labels.http_route));
      expect(routes.has('/api/games/:slug/scores')).toBe(true);
      expect(routes.has('unmatched')).toBe(true);
      for (const route of routes) expect(route).not.toMatch(/no-such-game|\/nothing\/here\/\d/);
      expect(counts.filter((s) => s.labels.http_route === '/api/games/:slug/scores').reduce((sum, s) => sum + s.value, 0)).toBeGreaterThanOrEqual(1000);
      expect(counts.filter((s) => s.labels.http_route === 'unmatched').reduce((sum, s) => sum + s.value, 0)).toBeGreaterThanOrEqual(100);
      // Every label set this test and the ones before made: a few dozen, not thousands.
      expect(counts.length).toBeLessThan(60);
      const distinctLines = new Set(samples.map((s) => `${s.name}${JSON.stringify(s.labels)}`));
      expect(distinctLines.size).toBeLessThan(2000);
    }, 120_000);
  });

  describe('request ids and log lines', () => {
    let t: TestApp;
    const log = logCapture();
    beforeAll(async () => {
      t = await createTestApp({ imports: [ProbeModule], logger: createRootLogger({ logLevel: 'info' }, { pretty: false, destination: log.stream }) });
    });
    afterAll(() => t.close());

    it('echoes a valid X-Request-Id (1 to 128 characters from ! to ~) on answers, errors and pages alike', async () => {
      const longest = `!${'a'.repeat(126)}~`;
      for (const [path, id] of [['/health/live', 'x'], ['/api/games/none/scores', longest], ['/nothing', 'abc/DEF:{"q"}'], ['/', 'page-1']] as const) {
        const res = await t.http().get(path).set('X-Request-Id', id);
        expect([path, res.headers['x-request-id']]).toEqual([path, id]);
      }
    });

    it('replaces an invalid one with a new id', async () => {
      for (const id of ['a'.repeat(129), 'has space', 'tab\there', 'é']) {
        const res = await t.http().get('/health/live').set('X-Request-Id', id);
        expect(res.headers['x-request-id']).not.toBe(id);
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
      const plain = await t.http().get('/health/live');
      expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('puts the request id on every line the request writes: the handler\'s, the error\'s and the request line', async () => {
      await t.http().post('/__probe/log').set('X-Request-Id', 'req-log-1').send({ note: 'hello' }).expect(201);
      await t.http().get('/__probe/boom').set('X-Request-Id', 'req-boom-1').expect(500);
      const boomLines = await eventually(async () => log.lines().filter((l) => l.reqId === 'req-boom-1').map((l) => l.msg), (msgs) => msgs.length >= 2);
      expect(boomLines).toEqual(['Unexpected error', 'request errored']);
      expect(log.lines().filter((l) => l.reqId === 'req-log-1').map((l) => [l.msg, l.context ?? null])).toEqual([
        ['inside the handler', 'Probe'],
        ['request completed', null],
      ]);
      const boom = log.lines().find((l) => l.msg === 'Unexpected error')!;
      expect(boom).toMatchObject({ level: 50, reqId: 'req-boom-1', context: 'Errors', err: { message: 'a surprise' } });
      // Outside any request (start-up), no request id.
      expect(log.lines().filter((l) => l.reqId === undefined && l.msg !== undefined).every((l) => !('trace_id' in l))).toBe(true);
      // No line of this app carries two ids, or the key twice.
      for (const line of log.lines()) expect(typeof (line.reqId ?? '')).toBe('string');
    });

    it('names the request in the log of a body the parser refused (before the request context)', async () => {
      await t.http().post('/__probe/log').set('X-Request-Id', 'req-bad-json').set('Content-Type', 'application/json').send('{"note":').expect(400);
      const lines = await eventually(async () => log.lines().filter((l) => l.reqId === 'req-bad-json').map((l) => l.msg), (msgs) => msgs.length >= 1);
      expect(lines).toEqual(['request completed']);
    });
  });

  describe('the books checked by themselves', () => {
    let t: TestApp;
    const log = logCapture();
    beforeAll(async () => {
      t = await createTestApp({ env: { METRICS_TOKEN: TOKEN }, logger: createRootLogger({ logLevel: 'info' }, { pretty: false, destination: log.stream }) });
    });
    afterAll(() => t.close());

    const gauge = async () => valueOf(parseMetrics((await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text), 'arcade_invariant_check_ok');

    it('sets arcade_invariant_check_ok to 1 when the books hold, skips while another instance holds the lock, and to 0 with an error naming each failed check', async () => {
      const checks = t.app.nest.get(InvariantCheckService);
      expect(await checks.runOnce()).toEqual({ ran: true, ok: true, failed: [] });
      expect(await gauge()).toBe(1);

      // Another instance is checking: this one skips the round.
      const other = await t.db.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1)', [INVARIANT_CHECK_LOCK]);
        expect(await checks.runOnce()).toEqual({ ran: false });
        await other.query('SELECT pg_advisory_unlock($1)', [INVARIANT_CHECK_LOCK]);
      } finally {
        other.release();
      }

      // A ledger entry whose wallet head was not moved: the books no longer balance.
      const account = await t.db.query(`INSERT INTO accounts (email, password_hash, display_name) VALUES ('broken@example.com', 'x', 'Broken') RETURNING id`);
      const player = await t.db.query(`INSERT INTO players (account_id, display_name) VALUES ($1, 'Broken') RETURNING id`, [account.rows[0].id]);
      const walletId = (await t.db.query(`INSERT INTO wallets (player_id) VALUES ($1) RETURNING id`, [player.rows[0].id])).rows[0].id;
      const hash = chainHashSql('wallet', CHAIN_GENESIS_SQL, {
        wallet_id: '$1::uuid', seq: '1', kind: "'credit'", delta: '10', balance_after: '10', reason: 'NULL', purchase_id: 'NULL', created_at: 'now()',
      });
      await t.db.query(`INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, created_at, hash) SELECT $1, 1, 10, 10, 'credit', now(), ${hash}`, [walletId]);
      const run = await checks.runOnce();
      expect(run).toMatchObject({ ran: true, ok: false });
      expect(run.ran && run.failed).toEqual(expect.arrayContaining(['wallet_ledgers', 'coins_conserved']));
      expect(await gauge()).toBe(0);
      const errors = log.lines().filter((l) => l.context === 'InvariantCheck' && l.level === 50);
      expect(errors.map((l) => l.check)).toEqual(run.ran ? run.failed : []);
      expect(errors.map((l) => l.msg)).toContain('Books check failed: wallet_ledgers (GET /api/admin/reconciliation shows the offending rows)');
      // The lock was let go: another connection takes it at once.
      expect((await t.db.query('SELECT pg_try_advisory_lock($1) AS locked', [INVARIANT_CHECK_LOCK])).rows[0].locked).toBe(true);
    });
  });

  describe('the periodic check runs by itself when INVARIANT_CHECK_INTERVAL_SECONDS is set', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, INVARIANT_CHECK_INTERVAL_SECONDS: '1' } });
    });
    afterAll(() => t.close());

    it('publishes arcade_invariant_check_ok without being asked', async () => {
      const read = async () => valueOf(parseMetrics((await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text), 'arcade_invariant_check_ok');
      expect(await eventually(read, (value) => value === 1, { withinMs: 15_000 })).toBe(1);
    });
  });
});
