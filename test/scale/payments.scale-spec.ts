import { existsSync } from 'node:fs';
import request from 'supertest';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { createTestDatabase, testPool } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { eventBody, eventId, pendingPurchase, sign, webhookSecret } from '../support/payments';
import { MAIN, ServiceProcess, startService } from '../support/process';

/**
 * Payment webhooks on three service processes sharing one PostgreSQL (CONTRACT §19): the same event
 * delivered 20 times at once across the instances credits once; so do 20 distinct success events
 * of one payment, and 20 copies of its refund take the coins back once. The instances start with no
 * PAYMENT_WEBHOOK_SECRET and agree on the one the first of them generated.
 */
describe('payment webhooks across three instances', () => {
  let services: ServiceProcess[] = [];
  let t: TestApp;

  const webhook = (instance: number, body: string, signature: string) =>
    request(services[instance % services.length]!.url).post('/webhooks/payments/sandbox').set('Content-Type', 'application/json').set('Sandbox-Signature', signature).send(body);

  async function ledgerOf(playerId: string): Promise<{ kind: string; delta: number }[]> {
    const { rows } = await t.db.query('SELECT l.kind, l.delta FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 ORDER BY l.seq', [playerId]);
    return rows;
  }

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm run test:scale builds it first');
    const databaseUrl = await createTestDatabase();
    const env = {
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      // Every sign-up comes from 127.0.0.1, counted in the shared Redis across the whole run.
      RATE_LIMIT_SIGNUP_PER_ADDRESS: '1000000/3600',
      RATE_LIMIT_MAIL_PER_ADDRESS: '1000000/3600',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    };
    services = await Promise.all([startService(env), startService(env), startService(env)]);
    let next = 0;
    t = { http: () => request(services[next++ % 3]!.url), db: testPool(databaseUrl), databaseUrl, app: undefined as never, clock: undefined as never, close: async () => undefined };
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all(services.map((s) => s.stop('SIGTERM')));
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    } finally {
      await t?.db.end();
    }
    expect(codes).toEqual(services.map(() => 0));
  });

  it('credits once when one event reaches all three instances 20 times at the same moment', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await pendingPurchase(t, player, 'pack-40');
    const body = eventBody('payment.succeeded', purchaseId);
    const signature = sign(await webhookSecret(t), body);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => webhook(i, body, signature)));
    expect(answers.map((r) => [r.status, r.body])).toEqual(Array(20).fill([200, { received: true }]));
    expect(await ledgerOf(player.playerId)).toEqual([{ kind: 'purchase', delta: 40 }]);
    const { rows } = await t.db.query('SELECT status FROM purchases WHERE id = $1', [purchaseId]);
    expect(rows).toEqual([{ status: 'paid' }]);
    expect((await t.db.query('SELECT count(*)::int AS n FROM payment_events WHERE purchase_id = $1', [purchaseId])).rows[0].n).toBe(1);
  });

  it('credits once for 20 distinct success events of one payment, and takes back once for 20 copies of its refund', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await pendingPurchase(t, player, 'pack-10');
    const secret = await webhookSecret(t);
    const successes = Array.from({ length: 20 }, () => eventBody('payment.succeeded', purchaseId, eventId()));
    const paid = await Promise.all(successes.map((body, i) => webhook(i, body, sign(secret, body))));
    expect(paid.every((r) => r.status === 200)).toBe(true);
    const refund = eventBody('payment.refunded', purchaseId);
    const refunded = await Promise.all(Array.from({ length: 20 }, (_, i) => webhook(i, refund, sign(secret, refund))));
    expect(refunded.every((r) => r.status === 200)).toBe(true);
    expect(await ledgerOf(player.playerId)).toEqual([{ kind: 'purchase', delta: 10 }, { kind: 'refund', delta: -10 }]);
    expect((await t.db.query('SELECT status, unrecovered_coins FROM purchases WHERE id = $1', [purchaseId])).rows).toEqual([{ status: 'refunded', unrecovered_coins: 0 }]);
  });
});
