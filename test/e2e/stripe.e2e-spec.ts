/**
 * PAYMENT_PROVIDER=stripe (CONTRACT §19), offline: the Checkout Session call goes to a local
 * stand-in through the stripe package's host/port/protocol options, and webhook payloads are signed
 * with `stripe.webhooks.generateTestHeaderString`, as Stripe signs them.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { createWorldApp, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { idempotencyKey } from '../support/play';
import { balanceOf, buy, purchaseOf } from '../support/payments';
import { startService } from '../support/process';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const SECRET_KEY = 'sk_test_0123456789abcdef';

interface StandInCall {
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

/** Answers POST /v1/checkout/sessions as Stripe would (or fails when told to). */
async function standIn(): Promise<{ server: Server; url: string; calls: StandInCall[]; failing: { on: boolean } }> {
  const calls: StandInCall[] = [];
  const failing = { on: false };
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', headers: req.headers, form: new URLSearchParams(body) });
      res.setHeader('Content-Type', 'application/json');
      if (failing.on) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'stand-in failure' } }));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
        return;
      }
      n += 1;
      const id = `cs_test_standin${n}`;
      res.end(JSON.stringify({ id, object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', url: `https://checkout.stripe.test/c/pay/${id}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, failing };
}

function signed(payload: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, ...(timestamp !== undefined ? { timestamp } : {}) });
}

let sequence = 0;
/** A Stripe event as Stripe sends it; test mode (`livemode: false`) like the test key, unless `livemode` says otherwise. */
function event(type: string, object: Record<string, unknown>, id = `evt_test_${++sequence}_${Date.now()}`, livemode = false): string {
  return JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode, type, data: { object } });
}

describe('buying coins through Stripe', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof standIn>>;

  beforeAll(async () => {
    stripe = await standIn();
    t = await createWorldApp({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url } });
  });
  afterAll(async () => {
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    } finally {
      await t.close();
      await new Promise((resolve) => stripe.server.close(resolve));
    }
  });

  /** `signature` null: no Stripe-Signature header at all. */
  const post = (payload: string, signature: string | null = signed(payload)) => {
    const req = t.http().post('/webhooks/payments/stripe').set('Content-Type', 'application/json; charset=utf-8');
    if (signature !== null) req.set('Stripe-Signature', signature);
    return req.send(payload);
  };

  async function stripePurchase(player: SignedUpUser, packId = 'pack-10'): Promise<{ purchaseId: string; sessionId: string }> {
    const res = await buy(t, player, packId).expect(201);
    return { purchaseId: res.body.purchaseId, sessionId: res.body.checkoutUrl.split('/').pop() };
  }

  const completed = (purchaseId: string, sessionId: string, paymentIntent: string, extra: Record<string, unknown> = {}) =>
    event('checkout.session.completed', { id: sessionId, object: 'checkout.session', client_reference_id: purchaseId, metadata: { purchaseId }, payment_intent: paymentIntent, payment_status: 'paid', amount_total: 250, currency: 'usd', ...extra });

  it('creates a Checkout Session for the pack, keyed by the purchase, and answers its URL', async () => {
    const player = await signUpVerifiedPlayer(t);
    const res = await buy(t, player, 'pack-40').expect(201);
    expect(res.body).toMatchObject({ packId: 'pack-40', coins: 40, priceUsd: '10', status: 'pending', checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_standin\d+$/) });
    const call = stripe.calls.at(-1)!;
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(call.headers['idempotency-key']).toBe(`purchase-${res.body.purchaseId}`);
    expect(Object.fromEntries(call.form)).toMatchObject({
      mode: 'payment',
      client_reference_id: res.body.purchaseId,
      'metadata[purchaseId]': res.body.purchaseId,
      'payment_intent_data[metadata][purchaseId]': res.body.purchaseId,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1000',
      success_url: `http://localhost:3000/checkout/${res.body.purchaseId}`,
    });
    // A repeat of the key makes no second session.
    const calls = stripe.calls.length;
    await buy(t, player, 'pack-40', idempotencyKey('x')).expect(201);
    expect(stripe.calls.length).toBe(calls + 1);
  });

  it('answers 503 and the purchase fails when Stripe cannot be reached; the same key answers that failed purchase, a new key buys once it can', async () => {
    const player = await signUpVerifiedPlayer(t);
    const key = idempotencyKey('stripe-down');
    stripe.failing.on = true;
    try {
      const res = await buy(t, player, 'pack-10', key);
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(res.body)).not.toContain(SECRET_KEY);
    } finally {
      stripe.failing.on = false;
    }
    // CONTRACT §19.1: recorded before the provider was called, failed when it could not open a checkout.
    const { rows } = await t.db.query('SELECT status, checkout_url FROM purchases WHERE account_id = $1', [player.accountId]);
    expect(rows).toEqual([{ status: 'failed', checkout_url: null }]);
    expect((await buy(t, player, 'pack-10', key).expect(200)).body).toMatchObject({ status: 'failed', checkoutUrl: null });
    await buy(t, player, 'pack-10').expect(201);
  });

  it('pays on checkout.session.completed, once however often it comes', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    const payload = completed(purchaseId, sessionId, 'pi_test_once');
    const answers = await Promise.all([post(payload), post(payload), post(payload)]);
    expect(answers.map((r) => [r.status, r.body])).toEqual(Array(3).fill([200, { received: true }]));
    expect(await balanceOf(t, player)).toBe(10);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('paid');
    // Another delivery of the same news, under another event id:
    await post(completed(purchaseId, sessionId, 'pi_test_once')).expect(200);
    expect(await balanceOf(t, player)).toBe(10);
  });

  it('finds the purchase by its Checkout Session alone', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    await post(event('checkout.session.completed', { id: sessionId, object: 'checkout.session', payment_intent: 'pi_test_by_session', payment_status: 'paid' })).expect(200);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('paid');
  });

  it('fails on checkout.session.expired; a session completed unpaid waits for async_payment_succeeded', async () => {
    const player = await signUpVerifiedPlayer(t);
    const expired = await stripePurchase(player);
    await post(event('checkout.session.expired', { id: expired.sessionId, object: 'checkout.session', client_reference_id: expired.purchaseId, payment_status: 'unpaid' })).expect(200);
    expect((await purchaseOf(t, player, expired.purchaseId)).status).toBe('failed');

    const delayed = await stripePurchase(player, 'pack-40');
    await post(completed(delayed.purchaseId, delayed.sessionId, 'pi_test_delayed', { payment_status: 'unpaid' })).expect(200);
    expect((await purchaseOf(t, player, delayed.purchaseId)).status).toBe('pending');
    expect(await balanceOf(t, player)).toBe(0);
    await post(event('checkout.session.async_payment_succeeded', { id: delayed.sessionId, object: 'checkout.session', client_reference_id: delayed.purchaseId, payment_intent: 'pi_test_delayed', payment_status: 'paid' })).expect(200);
    expect((await purchaseOf(t, player, delayed.purchaseId)).status).toBe('paid');
    expect(await balanceOf(t, player)).toBe(40);
  });

  it('refunds on charge.refunded, finding the purchase by its PaymentIntent', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    await post(completed(purchaseId, sessionId, 'pi_test_refund')).expect(200);
    await post(event('charge.refunded', { id: 'ch_test_refund', object: 'charge', payment_intent: 'pi_test_refund', amount: 250, amount_refunded: 250, refunded: true })).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', unrecoveredCoins: 0 });
    expect(await balanceOf(t, player)).toBe(0);
  });

  it('keeps a dispute that comes before the payment it names, and applies it when the payment lands', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    const dispute = event('charge.dispute.created', { id: 'dp_test_early', object: 'dispute', charge: 'ch_test_early', payment_intent: 'pi_test_early', amount: 250, reason: 'fraudulent' });
    await post(dispute).expect(200);
    expect((await t.db.query("SELECT outcome FROM payment_events WHERE provider = 'stripe' AND payment_ref = 'pi_test_early'")).rows).toEqual([{ outcome: 'unknown_purchase' }]);
    await post(completed(purchaseId, sessionId, 'pi_test_early')).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 0 });
    expect(await balanceOf(t, player)).toBe(0);
    const me = await t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId: 'pack-10', idempotencyKey: idempotencyKey() });
    expect(me.status).toBe(403);
    expect(me.body.error).toBe('WALLET_FROZEN');
  });

  /** A paid pack-40 purchase (1000 cents) under PaymentIntent `pi`. */
  async function paidStripePurchase(player: SignedUpUser, pi: string): Promise<string> {
    const { purchaseId, sessionId } = await stripePurchase(player, 'pack-40');
    await post(completed(purchaseId, sessionId, pi, { amount_total: 1000 })).expect(200);
    expect(await balanceOf(t, player)).toBe(40);
    return purchaseId;
  }

  const charge = (pi: string, refunded: number, extra: Record<string, unknown> = {}) =>
    event('charge.refunded', { id: `ch_${pi}`, object: 'charge', payment_intent: pi, amount: 1000, amount_refunded: refunded, currency: 'usd', refunded: refunded === 1000, ...extra });
  const refundObject = (pi: string, id: string, status: string, amount = 100) => ({ id, object: 'refund', payment_intent: pi, charge: `ch_${pi}`, amount, currency: 'usd', status });
  const dispute = (type: string, pi: string, extra: Record<string, unknown> = {}) =>
    event(type, { id: `dp_${pi}`, object: 'dispute', charge: `ch_${pi}`, payment_intent: pi, amount: 1000, currency: 'usd', status: 'needs_response', ...extra });

  it.each([
    ['another amount_total', { amount_total: 1 }],
    ['another currency', { currency: 'eur' }],
  ])('a checkout.session.completed with %s credits nothing and changes no purchase', async (_name, extra) => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    const payload = completed(purchaseId, sessionId, `pi_test_mismatch_${sequence}`, extra);
    await post(payload).expect(200);
    expect(await balanceOf(t, player)).toBe(0);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
    const { rows } = await t.db.query("SELECT outcome, amount_cents::float8 AS amount, currency FROM payment_events WHERE provider = 'stripe' AND event_id = $1", [JSON.parse(payload).id]);
    expect(rows).toEqual([{ outcome: expect.stringMatching(/mismatch/), amount: 'amount_total' in extra ? 1 : 250, currency: 'currency' in extra ? 'eur' : 'usd' }]);
  });

  it('an event from live mode, with a test key, moves nothing: a payment, a refund, a dispute', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    const live = (type: string, object: Record<string, unknown>) => event(type, object, undefined, true);
    await post(live('checkout.session.completed', { id: sessionId, object: 'checkout.session', client_reference_id: purchaseId, payment_intent: 'pi_test_live', payment_status: 'paid', amount_total: 250, currency: 'usd' })).expect(200);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
    await post(live('checkout.session.expired', { id: sessionId, object: 'checkout.session', client_reference_id: purchaseId })).expect(200);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
    await post(completed(purchaseId, sessionId, 'pi_test_live')).expect(200);
    await post(live('charge.refunded', { id: 'ch_live', object: 'charge', payment_intent: 'pi_test_live', amount: 250, amount_refunded: 250, currency: 'usd' })).expect(200);
    await post(live('charge.dispute.created', { id: 'dp_live', object: 'dispute', payment_intent: 'pi_test_live', amount: 250, currency: 'usd' })).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '0' });
    expect(await balanceOf(t, player)).toBe(10);
    const { rows } = await t.db.query("SELECT outcome FROM payment_events WHERE provider = 'stripe' AND livemode AND purchase_id = $1", [purchaseId]);
    expect(rows.map((r) => r.outcome)).toEqual(['livemode_mismatch', 'livemode_mismatch', 'livemode_mismatch', 'livemode_mismatch']);
  });

  it('fails on checkout.session.async_payment_failed', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    await post(event('checkout.session.async_payment_failed', { id: sessionId, object: 'checkout.session', client_reference_id: purchaseId, payment_status: 'unpaid', amount_total: 250, currency: 'usd' })).expect(200);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('failed');
  });

  it('charge.refunded is partial on amount_refunded, the running total: each total takes its coins once, in any order', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidStripePurchase(player, 'pi_test_partial');
    await post(charge('pi_test_partial', 101)).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '1.01' });
    expect(await balanceOf(t, player)).toBe(35);
    // The same total again (another event id), and a late lower total: nothing more.
    await post(charge('pi_test_partial', 101)).expect(200);
    await post(charge('pi_test_partial', 50)).expect(200);
    expect(await balanceOf(t, player)).toBe(35);
    await post(charge('pi_test_partial', 1000)).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', refundedUsd: '10', unrecoveredCoins: 0 });
    expect(await balanceOf(t, player)).toBe(0);
    const { rows } = await t.db.query("SELECT refunded_total_cents::float8 AS total FROM payment_events WHERE provider = 'stripe' AND kind = 'refund' AND payment_ref = 'pi_test_partial' ORDER BY received_at");
    expect(rows.map((r) => r.total)).toEqual([101, 101, 50, 1000]);
  });

  it('a refund in another currency moves nothing', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidStripePurchase(player, 'pi_test_refund_eur');
    await post(charge('pi_test_refund_eur', 1000, { currency: 'eur' })).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '0' });
    expect(await balanceOf(t, player)).toBe(40);
  });

  it.each(['charge.refund.updated', 'refund.updated', 'refund.failed'])('a refund Stripe reports failed (%s) gives its coins back once (refund_reversal)', async (type) => {
    const player = await signUpVerifiedPlayer(t);
    const pi = `pi_test_reversal_${type.replace(/\W/g, '_')}`;
    const purchaseId = await paidStripePurchase(player, pi);
    await post(charge(pi, 1000)).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', refundedUsd: '10' });
    // Still pending or succeeded: nothing.
    await post(event(type === 'refund.failed' ? 'refund.updated' : type, refundObject(pi, `re_${pi}`, 'succeeded', 1000))).expect(200);
    expect(await balanceOf(t, player)).toBe(0);
    await post(event(type, refundObject(pi, `re_${pi}`, 'failed', 1000))).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '0', unrecoveredCoins: 0 });
    expect(await balanceOf(t, player)).toBe(40);
    // Stripe tells of the same failure under its other types: given back once.
    for (const other of ['charge.refund.updated', 'refund.updated', 'refund.failed']) await post(event(other, refundObject(pi, `re_${pi}`, 'failed', 1000))).expect(200);
    expect(await balanceOf(t, player)).toBe(40);
    const { rows } = await t.db.query(
      'SELECT l.kind, l.delta FROM ledger_entries l WHERE l.purchase_id = $1 ORDER BY l.seq',
      [purchaseId],
    );
    expect(rows).toEqual([{ kind: 'purchase', delta: 40 }, { kind: 'refund', delta: -40 }, { kind: 'refund_reversal', delta: 40 }]);
  });

  it('a failed partial refund gives back only what it took', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidStripePurchase(player, 'pi_test_partial_fail');
    await post(charge('pi_test_partial_fail', 250)).expect(200);
    await post(charge('pi_test_partial_fail', 500)).expect(200);
    expect(await balanceOf(t, player)).toBe(20);
    await post(event('refund.failed', refundObject('pi_test_partial_fail', 're_second', 'failed', 250))).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '2.5' });
    expect(await balanceOf(t, player)).toBe(30);
  });

  it('charge.dispute.closed won gives the coins back and keeps the wallet frozen; lost keeps it disputed; other statuses change nothing', async () => {
    const winner = await signUpVerifiedPlayer(t);
    const won = await paidStripePurchase(winner, 'pi_test_won');
    await post(dispute('charge.dispute.created', 'pi_test_won')).expect(200);
    expect(await purchaseOf(t, winner, won)).toMatchObject({ status: 'disputed' });
    expect(await balanceOf(t, winner)).toBe(0);
    await post(dispute('charge.dispute.closed', 'pi_test_won', { status: 'warning_closed' })).expect(200);
    expect(await purchaseOf(t, winner, won)).toMatchObject({ status: 'disputed' });
    await post(dispute('charge.dispute.closed', 'pi_test_won', { status: 'won' })).expect(200);
    expect(await purchaseOf(t, winner, won)).toMatchObject({ status: 'paid', unrecoveredCoins: 0 });
    expect(await balanceOf(t, winner)).toBe(40);
    expect((await t.db.query("SELECT frozen_at FROM wallets WHERE player_id = $1", [winner.playerId])).rows[0].frozen_at).not.toBeNull();

    const loser = await signUpVerifiedPlayer(t);
    const lost = await paidStripePurchase(loser, 'pi_test_lost');
    await post(dispute('charge.dispute.created', 'pi_test_lost')).expect(200);
    await post(dispute('charge.dispute.closed', 'pi_test_lost', { status: 'lost' })).expect(200);
    await post(dispute('charge.dispute.closed', 'pi_test_lost', { status: 'won' })).expect(200);
    expect(await purchaseOf(t, loser, lost)).toMatchObject({ status: 'disputed' });
    expect(await balanceOf(t, loser)).toBe(0);
  });

  it('keeps a closed dispute that comes before its dispute and before the payment, and applies both in life order', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player, 'pack-40');
    await post(dispute('charge.dispute.closed', 'pi_test_early_won', { status: 'won' })).expect(200);
    await post(dispute('charge.dispute.created', 'pi_test_early_won')).expect(200);
    await post(completed(purchaseId, sessionId, 'pi_test_early_won', { amount_total: 1000 })).expect(200);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', unrecoveredCoins: 0 });
    expect(await balanceOf(t, player)).toBe(40);
  });

  it('stores the provider ids and amounts with each event', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidStripePurchase(player, 'pi_test_stored');
    await post(dispute('charge.dispute.created', 'pi_test_stored')).expect(200);
    const { rows } = await t.db.query(
      "SELECT kind, purchase_ref, checkout_ref, payment_ref, object_ref, amount_cents::float8 AS amount, currency, livemode FROM payment_events WHERE provider = 'stripe' AND purchase_id = $1 ORDER BY received_at",
      [purchaseId],
    );
    expect(rows).toEqual([
      { kind: 'payment_succeeded', purchase_ref: purchaseId, checkout_ref: expect.stringMatching(/^cs_test_/), payment_ref: 'pi_test_stored', object_ref: null, amount: 1000, currency: 'usd', livemode: false },
      { kind: 'dispute', purchase_ref: null, checkout_ref: null, payment_ref: 'pi_test_stored', object_ref: 'dp_pi_test_stored', amount: 1000, currency: 'usd', livemode: false },
    ]);
  });

  it.each([
    ['U+0000 in id', (p: string) => p.replace(/"id":"evt_[^"]*"/, '"id":"evt_\\u0000"')],
    ['a lone surrogate in type', (p: string) => p.replace('"type":"checkout.session.completed"', '"type":"checkout.session.completed\\ud800"')],
    ['U+0000 in the purchase id', (p: string) => p.replace(/"client_reference_id":"/, '"client_reference_id":"\\u0000')],
  ])('answers a signed event with %s 400 INVALID_REQUEST', async (_name, change) => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    const payload = change(completed(purchaseId, sessionId, `pi_test_odd_${sequence}`));
    const res = await post(payload);
    expect([res.status, res.body.error]).toEqual([400, 'INVALID_REQUEST']);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
  });

  it.each([
    ['no signature', (_p: string) => null],
    ['a signature with another secret', (p: string) => Stripe.webhooks.generateTestHeaderString({ payload: p, secret: 'whsec_other' })],
    ['a stale signature', (p: string) => signed(p, Math.floor(Date.now() / 1000) - 310)],
    ['a signature from the future', (p: string) => signed(p, Math.floor(Date.now() / 1000) + 310)],
  ])('refuses %s with 400 INVALID_SIGNATURE and changes nothing', async (_name, signature) => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId, sessionId } = await stripePurchase(player);
    const payload = completed(purchaseId, sessionId, `pi_test_${_name.replace(/\W/g, '')}`);
    const res = await post(payload, signature(payload));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_SIGNATURE', message: expect.any(String) });
    expect(await balanceOf(t, player)).toBe(0);
    expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
  });

  it('answers a verified body that is not an event with 400 INVALID_REQUEST, other types with 200', async () => {
    for (const payload of ['not json at all', JSON.stringify({ object: 'event', type: 'checkout.session.completed' })]) {
      const res = await post(payload);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    }
    await post(event('customer.created', { id: 'cus_1', object: 'customer' })).expect(200);
  });

  it('has no sandbox: its webhook and its card API answer 404', async () => {
    const player = await signUpVerifiedPlayer(t);
    const { purchaseId } = await stripePurchase(player);
    await t.http().post('/webhooks/payments/sandbox').set('Content-Type', 'application/json').send('{}').expect(404);
    await t.http().post(`/api/sandbox/purchases/${purchaseId}/pay`).set('Cookie', player.cookie).send({ cardNumber: '4242 4242 4242 4242' }).expect(404);
    const page = await t.http().get(`/checkout/${purchaseId}`).set('Cookie', player.cookie).expect(200);
    expect(page.text).not.toContain('Card number');
    expect(page.text).toContain('Waiting for the payment provider');
    expect(page.text).toMatch(/href="\/me">Continue<\/a>/);
  });
});

describe('start-up with PAYMENT_PROVIDER=stripe', () => {
  it('stops in production without the Stripe variables, naming them', async () => {
    const service = await startService({ NODE_ENV: 'production', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, { waitReady: false });
    expect(await service.exited).toBe(78);
    expect(service.output()).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set');
  });
});
