/**
 * Stripe payouts (CONTRACT §22), offline: the official `stripe` package talks to a local stand-in
 * of the Stripe API (a node:http server answering /v1/transfers) through STRIPE_API_URL → host,
 * port and protocol. A transfer Stripe makes pays the payout (reference: the transfer id); one it
 * refuses fails it and writes its amount back; one that gets no answer leaves it pending, and the
 * next run asks again with the same idempotency key (the payout id), looking it up first.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { signedInAdmin, SignedInAdmin } from '../support/admin';
import { createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession } from '../support/play';

interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  form: Record<string, string>;
}

/** The stand-in: each destination account behaves as the test says; every request is kept. */
class StripeStandIn {
  readonly seen: SeenRequest[] = [];
  readonly transfers: { id: string; transfer_group: string; amount: number; destination: string }[] = [];
  /** Accounts whose transfers answer 500 (Stripe unreachable for them) until taken off. */
  readonly down = new Set<string>();
  /** Accounts whose transfers take 150 ms; the most requests seen at once. */
  readonly slow = new Set<string>();
  inFlight = 0;
  mostInFlight = 0;
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.answer(req).then(({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
    this.seen.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: req.headers['idempotency-key'] as string | undefined, authorization: req.headers.authorization, form });
    if (url.pathname !== '/v1/transfers') return { status: 404, body: { error: { type: 'invalid_request_error', message: 'Unrecognized request URL.' } } };
    if (req.method === 'GET') {
      return { status: 200, body: { object: 'list', url: '/v1/transfers', has_more: false, data: this.transfers.filter((t) => t.transfer_group === form.transfer_group).map((t) => ({ object: 'transfer', ...t })) } };
    }
    const destination = form.destination!;
    if (this.slow.has(destination)) {
      this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 150));
      this.inFlight--;
    }
    if (this.down.has(destination)) return { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred.' } } };
    if (destination === 'acct_refuses') {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'destination', message: `No such destination: '${destination}'` } } };
    }
    const existing = this.transfers.find((t) => t.transfer_group === form.transfer_group);
    if (existing) return { status: 200, body: { object: 'transfer', ...existing } };
    const transfer = { id: `tr_${this.transfers.length + 1}${Date.now()}`, transfer_group: form.transfer_group!, amount: Number(form.amount), destination };
    this.transfers.push(transfer);
    return { status: 200, body: { object: 'transfer', currency: 'usd', ...transfer } };
  }
}

describe('Stripe payouts through the stripe package (CONTRACT §22)', () => {
  const stripe = new StripeStandIn();
  let t: TestApp;
  let admin: SignedInAdmin;

  beforeAll(async () => {
    const url = await stripe.start();
    t = await createWorldApp({ env: { PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '1', STRIPE_SECRET_KEY: 'sk_test_payouts_stand_in', STRIPE_API_URL: url } });
    admin = await signedInAdmin(t);
  });
  afterAll(async () => {
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    } finally {
      await t.close();
      await stripe.stop();
    }
  });

  /** A developer paid to `accountId`, with two insertions of 5 coins ($1.75) earned. */
  async function stripeDeveloper(accountId: string): Promise<Developer> {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 5 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 20);
    await paidSession(t, player, game.slug);
    await paidSession(t, player, game.slug);
    await t.http().put('/api/portal/payout-method').set('Cookie', dev.cookie).send({ kind: 'stripe', accountId }).expect(200);
    return dev;
  }
  const balanceOf = async (dev: Developer) => (await t.http().get('/api/portal/balance').set('Cookie', dev.cookie).expect(200)).body.balanceUsd;
  const mine = (payouts: { developerId: string }[], dev: Developer) => payouts.find((p) => p.developerId === dev.developerId) as Record<string, string>;

  it('makes the transfer in cents with the payout id as idempotency key, and marks the payout paid with the transfer id', async () => {
    const dev = await stripeDeveloper('acct_1Ok');
    const res = await admin.post('/api/admin/payout-runs', { idempotencyKey: idempotencyKey('run') }).expect(201);
    const payout = mine(res.body.payouts, dev);
    const transfer = stripe.transfers.find((tr) => tr.transfer_group === payout.payoutId)!;
    expect(payout).toMatchObject({ status: 'paid', amountUsd: '1.75', method: { kind: 'stripe', accountId: 'acct_1Ok' }, reference: transfer.id, paidAt: expect.any(String) });
    const sent = stripe.seen.filter((r) => r.method === 'POST' && r.form.transfer_group === payout.payoutId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/v1/transfers', idempotencyKey: payout.payoutId, authorization: 'Bearer sk_test_payouts_stand_in' });
    expect(sent[0]!.form).toMatchObject({ amount: '175', currency: 'usd', destination: 'acct_1Ok', transfer_group: payout.payoutId, 'metadata[payoutId]': payout.payoutId });
    expect(await balanceOf(dev)).toBe('0');
    expect((await t.db.query('SELECT status, reference FROM payouts WHERE id = $1', [payout.payoutId])).rows).toEqual([{ status: 'paid', reference: transfer.id }]);
  });

  it('fails a payout Stripe refuses and writes its amount back', async () => {
    const dev = await stripeDeveloper('acct_refuses');
    const res = await admin.post('/api/admin/payout-runs', { idempotencyKey: idempotencyKey('run') }).expect(201);
    const payout = mine(res.body.payouts, dev);
    expect(payout).toMatchObject({ status: 'failed', reference: null, failureReason: expect.stringMatching(/^Stripe refused the transfer: No such destination/) });
    expect(await balanceOf(dev)).toBe('1.75');
    const entries = (await t.db.query('SELECT kind, amount_mills::int AS amount FROM developer_ledger_entries WHERE payout_id = $1 ORDER BY id', [payout.payoutId])).rows;
    expect(entries).toEqual([
      { kind: 'payout', amount: -1750 },
      { kind: 'payout_reversal', amount: 1750 },
    ]);
  });

  it('leaves a payout pending when Stripe cannot be reached, and the next run asks again with the same key', async () => {
    stripe.down.add('acct_1Down');
    const dev = await stripeDeveloper('acct_1Down');
    const first = await admin.post('/api/admin/payout-runs', { idempotencyKey: idempotencyKey('run') }).expect(201);
    const payout = mine(first.body.payouts, dev);
    expect(payout).toMatchObject({ status: 'pending', reference: null });
    expect(await balanceOf(dev)).toBe('0');

    stripe.down.delete('acct_1Down');
    const second = await admin.post('/api/admin/payout-runs', { idempotencyKey: idempotencyKey('run') }).expect(201);
    expect(mine(second.body.payouts, dev)).toBeUndefined();
    const listed = (await t.http().get('/api/portal/payouts').set('Cookie', dev.cookie).expect(200)).body.payouts;
    expect(listed).toHaveLength(1);
    const transfer = stripe.transfers.find((tr) => tr.transfer_group === payout.payoutId)!;
    expect(listed[0]).toMatchObject({ payoutId: payout.payoutId, status: 'paid', reference: transfer.id });
    const asked = stripe.seen.filter((r) => r.form.transfer_group === payout.payoutId);
    // The first try (refused by the outage), then a look-up, then the same request with the same key.
    expect(asked.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(asked.filter((r) => r.method === 'POST').map((r) => r.idempotencyKey)).toEqual([payout.payoutId, payout.payoutId]);
    expect(stripe.transfers.filter((tr) => tr.transfer_group === payout.payoutId)).toHaveLength(1);
  });

  it('pays many Stripe developers in one run, never more than four transfers at once', async () => {
    const accounts = Array.from({ length: 7 }, (_, i) => `acct_1Many${i}`);
    for (const account of accounts) stripe.slow.add(account);
    const devs = await Promise.all(accounts.map((account) => stripeDeveloper(account)));
    const res = await admin.post('/api/admin/payout-runs', { idempotencyKey: idempotencyKey('run') }).expect(201);
    for (const dev of devs) expect(mine(res.body.payouts, dev)).toMatchObject({ status: 'paid', amountUsd: '1.75' });
    expect(stripe.mostInFlight).toBeGreaterThan(1);
    expect(stripe.mostInFlight).toBeLessThanOrEqual(4);
  });
});
