/**
 * Payment events with a real provider's fine print (CONTRACT §19.1), sandbox side: amounts and
 * currencies are checked, refunds may be partial (coins taken back on the running total), dispute
 * outcomes, an event id seen again with another body, and odd strings in a signed body. Money is
 * read back from the API and the database after each story.
 */
import type { TestApp } from '../support/app';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, insertCoin, startSession } from '../support/play';
import { balanceOf, buy, deliver, eventId, paidPurchase, pendingPurchase, postSandbox, purchaseOf, sign, webhookSecret } from '../support/payments';
import { checkInvariants } from '../../src/ops/invariants';

type Player = SignedUpUser & { playerId: string };

describe('payment events (sandbox, §19.1)', () => {
  let t: TestApp;
  let secret: string;
  let slug: string;

  beforeAll(async () => {
    t = await createWorldApp();
    secret = await webhookSecret(t);
    slug = (await publishGame(t, await createDeveloper(t), { coinsPerCredit: 5 })).slug;
  });
  afterAll(async () => {
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    } finally {
      await t.close();
    }
  });

  async function ledger(player: Player): Promise<{ kind: string; delta: number }[]> {
    const { rows } = await t.db.query(
      'SELECT l.kind, l.delta FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 ORDER BY l.seq',
      [player.playerId],
    );
    return rows;
  }

  async function frozen(player: Player): Promise<boolean> {
    const { rows } = await t.db.query<{ frozen_at: Date | null }>('SELECT frozen_at FROM wallets WHERE player_id = $1', [player.playerId]);
    return rows[0]!.frozen_at !== null;
  }

  async function recorded(id: string): Promise<Record<string, unknown>> {
    const { rows } = await t.db.query('SELECT outcome, amount_cents::float8 AS amount_cents, currency, body_hash FROM payment_events WHERE provider = $1 AND event_id = $2', ['sandbox', id]);
    return rows[0];
  }

  /** Spends `coins` (a multiple of 5) in the test game. */
  async function spend(player: Player, coins: number): Promise<void> {
    for (let i = 0; i < coins / 5; i++) {
      const { sessionId } = await startSession(t, player, slug);
      await insertCoin(t, player, sessionId);
    }
  }

  describe('amounts and currency', () => {
    it.each([
      ['another amount', { amountCents: 1 }],
      ['another currency', { amountCents: 250, currency: 'eur' }],
      ['a 1-cent EUR completion', { amountCents: 1, currency: 'EUR' }],
    ])('a payment.succeeded with %s credits nothing, changes no purchase, answers 200 and is recorded', async (_name, extra) => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-10');
      const id = eventId();
      const res = await deliver(t, 'payment.succeeded', purchaseId, id, extra).expect(200);
      expect(res.body).toEqual({ received: true });
      expect(await balanceOf(t, player)).toBe(0);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'pending', refundedUsd: '0' });
      expect(await recorded(id)).toMatchObject({
        outcome: expect.stringMatching(/mismatch/),
        amount_cents: extra.amountCents,
        currency: 'currency' in extra ? String(extra.currency).toLowerCase() : null,
      });
      // A failed purchase is not moved by it either; the right amount still pays.
      await deliver(t, 'payment.failed', purchaseId).expect(200);
      await deliver(t, 'payment.succeeded', purchaseId, eventId(), extra).expect(200);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('failed');
      await deliver(t, 'payment.succeeded', purchaseId, eventId(), { amountCents: 250, currency: 'USD' }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid' });
      expect(await balanceOf(t, player)).toBe(10);
    });

    it('a matching amount and currency (any case) pays, and both are stored with the event', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-40');
      const id = eventId();
      await deliver(t, 'payment.succeeded', purchaseId, id, { amountCents: 1000, currency: 'UsD' }).expect(200);
      expect(await balanceOf(t, player)).toBe(40);
      expect(await recorded(id)).toMatchObject({ outcome: 'applied', amount_cents: 1000, currency: 'usd', body_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    });

    it.each([
      ['a string amount', { amountCents: '250' }],
      ['a fractional amount', { amountCents: 2.5 }],
      ['a negative amount', { amountCents: -250 }],
      ['a numeric currency', { currency: 840 }],
    ])('answers a verified event with %s 400 INVALID_REQUEST, changing nothing', async (_name, extra) => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-10');
      const res = await deliver(t, 'payment.succeeded', purchaseId, eventId(), extra);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
    });
  });

  describe('partial refunds', () => {
    it('takes back ceil(total refunded cents / 25) coins on the running total, keeps refundedUsd, and stays paid until the price is reached', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '0' });
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 101 }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '1.01', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(35);
      // 101 + 24 = 125 cents: still 5 coins in total, nothing more taken.
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 24, currency: 'usd' }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '1.25' });
      expect(await balanceOf(t, player)).toBe(35);
      // Without an amount: what is left of the price.
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', refundedUsd: '10', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(0);
      expect(await ledger(player)).toEqual([
        { kind: 'purchase', delta: 40 },
        { kind: 'refund', delta: -5 },
        { kind: 'refund', delta: -35 },
      ]);
      // Refunded in full: a further refund changes nothing.
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 100 }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', refundedUsd: '10' });
      expect(await balanceOf(t, player)).toBe(0);
    });

    it('caps a refund at what is left of the price', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-10');
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 100 }).expect(200);
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 100000 }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', refundedUsd: '2.5', unrecoveredCoins: 0 });
      expect(await ledger(player)).toEqual([
        { kind: 'purchase', delta: 10 },
        { kind: 'refund', delta: -4 },
        { kind: 'refund', delta: -6 },
      ]);
    });

    it('a partial refund of spent coins keeps the rest as unrecoveredCoins while the purchase stays paid', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      await spend(player, 30);
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 500 }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '5', unrecoveredCoins: 10 });
      expect(await balanceOf(t, player)).toBe(0);
    });

    it('keeps a partial refund that arrives before the payment and applies its amount when the payment lands', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-40');
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 250 }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'pending', refundedUsd: '0' });
      await deliver(t, 'payment.succeeded', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '2.5' });
      expect(await balanceOf(t, player)).toBe(30);
    });

    it('a refund in another currency changes nothing', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-10');
      const id = eventId();
      await deliver(t, 'payment.refunded', purchaseId, id, { amountCents: 250, currency: 'gbp' }).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '0' });
      expect(await balanceOf(t, player)).toBe(10);
      expect((await recorded(id)).outcome).toMatch(/mismatch/);
    });
  });

  describe('dispute outcomes', () => {
    it('won: the coins the dispute took come back (dispute_won), the status returns to paid, its unrecoveredCoins clear, the wallet stays frozen', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      await spend(player, 30);
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 30 });
      expect(await balanceOf(t, player)).toBe(0);
      await deliver(t, 'payment.dispute_won', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', unrecoveredCoins: 0, refundedUsd: '0' });
      expect(await balanceOf(t, player)).toBe(10);
      expect(await frozen(player)).toBe(true);
      expect((await ledger(player)).slice(-2)).toEqual([
        { kind: 'refund', delta: -10 },
        { kind: 'dispute_won', delta: 10 },
      ]);
      // The outcome is final: a second one, either way, changes nothing.
      await deliver(t, 'payment.dispute_won', purchaseId).expect(200);
      await deliver(t, 'payment.dispute_lost', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(10);
    });

    it('won after a partial refund: only the dispute\'s coins and share of unrecoveredCoins go back', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 250 }).expect(200);
      expect(await balanceOf(t, player)).toBe(30);
      await spend(player, 20);
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      // The dispute took the 10 left of the 30 it claimed.
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 20, refundedUsd: '2.5' });
      await deliver(t, 'payment.dispute_won', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', unrecoveredCoins: 0, refundedUsd: '2.5' });
      expect(await balanceOf(t, player)).toBe(10);
    });

    it('won on a refunded purchase: back to refunded, nothing credited (the dispute took nothing)', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-10');
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      await fundPlayer(t, player, 5);
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      await deliver(t, 'payment.dispute_won', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', refundedUsd: '2.5', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(5);
      expect((await ledger(player)).map((e) => e.kind)).toEqual(['purchase', 'refund', 'credit']);
      expect(await frozen(player)).toBe(true);
    });

    it('lost: stays disputed, nothing moves; a later win changes nothing', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-10');
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      const lost = eventId();
      await deliver(t, 'payment.dispute_lost', purchaseId, lost).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 0 });
      expect((await recorded(lost)).outcome).toBe('applied');
      await deliver(t, 'payment.dispute_won', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed' });
      expect(await balanceOf(t, player)).toBe(0);
    });

    it('keeps an outcome that arrives before its dispute until the dispute lands, even before the payment', async () => {
      const player = await signUpVerifiedPlayer(t);
      const paid = await paidPurchase(t, player, 'pack-10');
      await deliver(t, 'payment.dispute_won', paid).expect(200);
      expect(await purchaseOf(t, player, paid)).toMatchObject({ status: 'paid' });
      await deliver(t, 'payment.disputed', paid).expect(200);
      expect(await purchaseOf(t, player, paid)).toMatchObject({ status: 'paid', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(10);
      expect(await frozen(player)).toBe(true);

      const other = await signUpVerifiedPlayer(t);
      const pending = await pendingPurchase(t, other, 'pack-10');
      await deliver(t, 'payment.dispute_lost', pending).expect(200);
      await deliver(t, 'payment.disputed', pending).expect(200);
      await deliver(t, 'payment.succeeded', pending).expect(200);
      expect(await purchaseOf(t, other, pending)).toMatchObject({ status: 'disputed' });
      expect(await balanceOf(t, other)).toBe(0);
    });
  });

  describe('an event id seen again', () => {
    it('with another body changes nothing, answers 200 and is recorded with its body hash; the same body is a plain duplicate', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      const id = eventId();
      const first = JSON.stringify({ id, type: 'payment.refunded', purchaseId, created: Math.floor(Date.now() / 1000), amountCents: 100 });
      await postSandbox(t, first, sign(secret, first)).expect(200);
      await postSandbox(t, first, sign(secret, first)).expect(200);
      expect(await balanceOf(t, player)).toBe(36);
      expect((await t.db.query('SELECT 1 FROM payment_event_conflicts WHERE event_id = $1', [id])).rows).toHaveLength(0);

      const changed = JSON.stringify({ id, type: 'payment.refunded', purchaseId, created: Math.floor(Date.now() / 1000), amountCents: 1000 });
      const res = await postSandbox(t, changed, sign(secret, changed));
      expect([res.status, res.body]).toEqual([200, { received: true }]);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '1' });
      expect(await balanceOf(t, player)).toBe(36);
      const { rows } = await t.db.query('SELECT provider, body_hash FROM payment_event_conflicts WHERE event_id = $1', [id]);
      expect(rows).toEqual([{ provider: 'sandbox', body_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      expect(rows[0].body_hash).not.toBe((await recorded(id)).body_hash);
    });
  });

  describe('odd strings in a signed body (§13)', () => {
    it.each([
      ['U+0000 in id', (p: string) => `{"id":"evt_\\u0000x","type":"payment.succeeded","purchaseId":"${p}","created":1}`],
      ['U+0000 in type', (p: string) => `{"id":"${eventId()}","type":"payment.succeeded\\u0000","purchaseId":"${p}","created":1}`],
      ['U+0000 in purchaseId', (p: string) => `{"id":"${eventId()}","type":"payment.succeeded","purchaseId":"${p}\\u0000","created":1}`],
      ['a lone surrogate in id', (p: string) => `{"id":"evt_\\ud800","type":"payment.succeeded","purchaseId":"${p}","created":1}`],
      ['a lone surrogate in type', (p: string) => `{"id":"${eventId()}","type":"payment.\\udc00succeeded","purchaseId":"${p}","created":1}`],
      ['a lone surrogate in purchaseId', (p: string) => `{"id":"${eventId()}","type":"payment.succeeded","purchaseId":"\\ud800${p}","created":1}`],
    ])('answers %s with 400 INVALID_REQUEST and changes nothing', async (_name, body) => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-10');
      const raw = body(purchaseId);
      const res = await postSandbox(t, raw, sign(secret, raw));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String) });
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
      expect(await balanceOf(t, player)).toBe(0);
    });
  });

  it('a purchase lists refundedUsd "0" from the start', async () => {
    const player = await signUpVerifiedPlayer(t);
    const res = await buy(t, player, 'pack-10').expect(201);
    expect(res.body.refundedUsd).toBe('0');
  });
});
