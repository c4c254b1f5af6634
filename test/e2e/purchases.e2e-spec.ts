/**
 * Buying coins with the sandbox provider (CONTRACT §19): packs, purchases, the signed webhook and
 * its verification, exactly-once credits, and the life order of events whatever their arrival.
 * Money is read back from the API and the database after each story.
 */
import { randomUUID } from 'node:crypto';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { InsertCoinService } from '../../src/modules/play-sessions/insert-coin.service';
import { WalletService } from '../../src/modules/wallet/wallet.service';
import { WalletFrozenError } from '../../src/modules/wallet/wallet.errors';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createWorldApp, publishGame, signUpPlayer, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, idempotencyKey, insertCoin, startSession } from '../support/play';
import { balanceOf, buy, deliver, eventBody, eventId, paidPurchase, pendingPurchase, postSandbox, purchaseOf, sign, webhookSecret } from '../support/payments';

type Player = SignedUpUser & { playerId: string };

describe('buying coins (sandbox)', () => {
  let t: TestApp;
  let secret: string;

  beforeAll(async () => {
    t = await createWorldApp();
    secret = await webhookSecret(t);
  });
  afterAll(async () => {
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    } finally {
      await t.close();
    }
  });

  async function ledger(player: Player): Promise<{ kind: string; delta: number; purchase_id: string | null }[]> {
    const { rows } = await t.db.query(
      `SELECT l.kind, l.delta, l.purchase_id FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 ORDER BY l.seq`,
      [player.playerId],
    );
    return rows;
  }

  async function frozenAt(player: Player): Promise<Date | null> {
    const { rows } = await t.db.query<{ frozen_at: Date | null }>('SELECT frozen_at FROM wallets WHERE player_id = $1', [player.playerId]);
    return rows[0]!.frozen_at;
  }

  describe('GET /api/shop/packs', () => {
    it('lists the default packs at face value to anyone', async () => {
      const res = await t.http().get('/api/shop/packs').expect(200);
      expect(res.body).toEqual({
        currency: 'USD',
        packs: [
          { packId: expect.any(String), coins: 10, priceUsd: '2.5' },
          { packId: expect.any(String), coins: 40, priceUsd: '10' },
          { packId: expect.any(String), coins: 100, priceUsd: '25' },
        ],
      });
      expect(new Set(res.body.packs.map((p: { packId: string }) => p.packId)).size).toBe(3);
    });
  });

  describe('POST /api/me/purchases', () => {
    it('creates a pending purchase with a checkout page, and lists it', async () => {
      const player = await signUpVerifiedPlayer(t);
      const res = await buy(t, player, 'pack-40').expect(201);
      expect(res.body).toEqual({
        purchaseId: expect.any(String),
        packId: 'pack-40',
        coins: 40,
        priceUsd: '10',
        status: 'pending',
        checkoutUrl: `/checkout/${res.body.purchaseId}`,
        unrecoveredCoins: 0,
        refundedUsd: '0',
        createdAt: expect.any(String),
      });
      const list = await t.http().get('/api/me/purchases').set('Cookie', player.cookie).expect(200);
      expect(list.body).toEqual({ purchases: [res.body] });
      expect(await balanceOf(t, player)).toBe(0);
    });

    it('lists only the caller\'s purchases, newest first', async () => {
      const player = await signUpVerifiedPlayer(t);
      const other = await signUpVerifiedPlayer(t);
      const first = await pendingPurchase(t, player, 'pack-10');
      const second = await pendingPurchase(t, player, 'pack-100');
      await pendingPurchase(t, other);
      const list = await t.http().get('/api/me/purchases').set('Cookie', player.cookie).expect(200);
      expect(list.body.purchases.map((p: { purchaseId: string }) => p.purchaseId)).toEqual([second, first]);
      const unlinked = await signUpPlayer(t, { linked: false });
      expect((await t.http().get('/api/me/purchases').set('Cookie', unlinked.cookie).expect(200)).body).toEqual({ purchases: [] });
      await t.http().get('/api/me/purchases').expect(401);
    });

    it('answers a repeat of the key with the purchase as it is now, once, and refuses the key for another pack', async () => {
      const player = await signUpVerifiedPlayer(t);
      const key = idempotencyKey('repeat');
      const created = await buy(t, player, 'pack-10', key).expect(201);
      await deliver(t, 'payment.succeeded', created.body.purchaseId).expect(200);
      const again = await buy(t, player, 'pack-10', key).expect(200);
      expect(again.body).toEqual({ ...created.body, status: 'paid' });
      const conflict = await buy(t, player, 'pack-40', key).expect(409);
      expect(conflict.body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
      // A key already used for an insert-coin is another endpoint's: 409 too.
      expect((await t.db.query('SELECT count(*)::int AS n FROM purchases WHERE account_id = $1', [player.accountId])).rows[0].n).toBe(1);
    });

    it('makes one purchase of concurrent repeats', async () => {
      const player = await signUpVerifiedPlayer(t);
      const key = idempotencyKey('race');
      const answers = await Promise.all(Array.from({ length: 8 }, () => buy(t, player, 'pack-10', key)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.body.purchaseId)).size).toBe(1);
      expect((await t.db.query('SELECT count(*)::int AS n FROM purchases WHERE account_id = $1', [player.accountId])).rows[0].n).toBe(1);
    });

    it('refuses an unknown pack and bad bodies with 400, creating nothing', async () => {
      const player = await signUpVerifiedPlayer(t);
      const unknown = await buy(t, player, 'pack-11').expect(400);
      expect(unknown.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringContaining('Pack: no pack “pack-11” is on sale') });
      await t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId: 'pack-10' }).expect(400);
      await t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId: 'pack-10', idempotencyKey: 'short' }).expect(400);
      await t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId: 10, idempotencyKey: idempotencyKey() }).expect(400);
      await t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId: 'pack-10', idempotencyKey: idempotencyKey(), coins: 1000 }).expect(400);
      expect((await t.db.query('SELECT count(*)::int AS n FROM purchases WHERE account_id = $1', [player.accountId])).rows[0].n).toBe(0);
    });

    it('needs a verified, linked player, signed in, from this origin', async () => {
      await t.http().post('/api/me/purchases').send({ packId: 'pack-10', idempotencyKey: idempotencyKey() }).expect(401);
      const unverified = await signUpPlayer(t, { verified: false });
      expect((await buy(t, unverified).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      expect((await buy(t, unlinked).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
      const player = await signUpVerifiedPlayer(t);
      const cross = await t.http().post('/api/me/purchases').set('Cookie', player.cookie).set('Origin', 'https://evil.example').send({ packId: 'pack-10', idempotencyKey: idempotencyKey() });
      expect(cross.status).toBe(403);
      expect(cross.body.error).toBe('FORBIDDEN');
    });
  });

  describe('POST /webhooks/payments/sandbox: verification', () => {
    let player: Player;
    let purchaseId: string;

    beforeEach(async () => {
      player = await signUpVerifiedPlayer(t);
      purchaseId = await pendingPurchase(t, player);
    });

    async function expectUnchanged(): Promise<void> {
      expect(await balanceOf(t, player)).toBe(0);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
    }

    it('generated its signing key once and stored it', async () => {
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
    });

    it.each([
      ['no signature', () => undefined],
      ['an empty signature', () => ''],
      ['a signature with another key', (body: string) => sign('another-secret-of-some-length', body)],
      ['a signature over another body', (body: string) => sign(secret, body.replace('payment.succeeded', 'payment.failed'))],
      ['a timestamp without a signature', () => `t=${Math.floor(Date.now() / 1000)}`],
      ['a signature without a timestamp', (body: string) => sign(secret, body).split(',')[1]!],
      ['a stale timestamp (5 min 10 s ago)', (body: string) => sign(secret, body, Math.floor(Date.now() / 1000) - 310)],
      ['a timestamp 5 min 10 s ahead', (body: string) => sign(secret, body, Math.floor(Date.now() / 1000) + 310)],
      ['a signed timestamp swapped for a fresh one', (body: string) => {
        const old = Math.floor(Date.now() / 1000) - 600;
        return sign(secret, body, old).replace(`t=${old}`, `t=${Math.floor(Date.now() / 1000)}`);
      }],
      ['a malformed header', () => 'v1=zz,t=abc'],
    ])('refuses %s with 400 INVALID_SIGNATURE and changes nothing', async (_name, signature) => {
      const id = eventId();
      const body = eventBody('payment.succeeded', purchaseId, id);
      const res = await postSandbox(t, body, signature(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'INVALID_SIGNATURE', message: expect.any(String) });
      await expectUnchanged();
      expect((await t.db.query('SELECT 1 FROM payment_events WHERE event_id = $1', [id])).rows).toHaveLength(0);
    });

    it('accepts timestamps within 5 minutes either way, hex in either case, spaces after commas, and one matching v1 among several', async () => {
      const now = Math.floor(Date.now() / 1000);
      const variants = [
        (body: string) => sign(secret, body, now - 290),
        (body: string) => sign(secret, body, now + 290),
        (body: string) => sign(secret, body).replace(/v1=([0-9a-f]+)/, (_m, hex: string) => `v1=${hex.toUpperCase()}`),
        (body: string) => sign(secret, body).replace(',', ', '),
        (body: string) => `${sign(secret, body).split(',')[0]}, v1=${'0'.repeat(64)}, ${sign(secret, body).split(',')[1]}`,
      ];
      for (const variant of variants) {
        const body = eventBody('payment.failed', purchaseId);
        const res = await postSandbox(t, body, variant(body));
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { received: true } });
      }
      expect((await t.db.query("SELECT count(*)::int AS n FROM payment_events WHERE purchase_id = $1", [purchaseId])).rows[0].n).toBe(variants.length);
    });

    it('reads the raw body whatever its media type', async () => {
      const body = eventBody('payment.succeeded', purchaseId);
      const res = await postSandbox(t, body, sign(secret, body), 'text/plain');
      expect(res.status).toBe(200);
      expect(await balanceOf(t, player)).toBe(10);
    });

    it.each([
      ['not JSON', 'this is not json'],
      ['a JSON array', '[1,2]'],
      ['an event without id', JSON.stringify({ type: 'payment.succeeded', purchaseId: 'x' })],
      ['an event without type', JSON.stringify({ id: 'evt_1', purchaseId: 'x' })],
      ['an event whose id is not a string', JSON.stringify({ id: 42, type: 'payment.succeeded' })],
      ['an event whose id is empty', JSON.stringify({ id: '', type: 'payment.succeeded' })],
    ])('answers a verified body that is %s with 400 INVALID_REQUEST', async (_name, body) => {
      const res = await postSandbox(t, body, sign(secret, body));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.any(String) });
      await expectUnchanged();
    });

    it('answers 404 NOT_FOUND for a provider not in use', async () => {
      const body = eventBody('payment.succeeded', purchaseId);
      for (const provider of ['paypal', 'stripe', 'SANDBOX']) {
        const res = await t.http().post(`/webhooks/payments/${provider}`).set('Content-Type', 'application/json').set('Sandbox-Signature', sign(secret, body)).send(body);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('NOT_FOUND');
      }
      await expectUnchanged();
    });

    it('refuses a body over 64 KB with 413', async () => {
      const body = JSON.stringify({ id: eventId(), type: 'payment.succeeded', purchaseId, pad: 'x'.repeat(70_000) });
      const res = await postSandbox(t, body, sign(secret, body));
      expect(res.status).toBe(413);
      expect(res.body.error).toBe('PAYLOAD_TOO_LARGE');
      await expectUnchanged();
    });

    it('records an event for an unknown purchase, or of a type it does not handle, and changes nothing', async () => {
      for (const [type, ref] of [['payment.succeeded', '00000000-0000-4000-8000-000000000000'], ['payment.succeeded', 'not-a-uuid'], ['payment.authorized', purchaseId]] as const) {
        const id = eventId();
        const res = await deliver(t, type, ref, id);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ received: true });
        const { rows } = await t.db.query('SELECT type, outcome FROM payment_events WHERE event_id = $1', [id]);
        expect(rows).toEqual([{ type, outcome: type === 'payment.authorized' ? 'ignored' : 'unknown_purchase' }]);
      }
      await expectUnchanged();
    });
  });

  describe('exactly-once money', () => {
    it('credits a paid purchase once: a purchase ledger entry, whatever the number of deliveries of one event', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-40');
      const id = eventId();
      const body = eventBody('payment.succeeded', purchaseId, id);
      const answers = await Promise.all(Array.from({ length: 10 }, () => postSandbox(t, body, sign(secret, body))));
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(answers.every((r) => r.body.received === true)).toBe(true);
      expect(await balanceOf(t, player)).toBe(40);
      expect(await ledger(player)).toEqual([{ kind: 'purchase', delta: 40, purchase_id: purchaseId }]);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('paid');
      // Once more, later:
      await postSandbox(t, body, sign(secret, body)).expect(200);
      expect(await balanceOf(t, player)).toBe(40);
    });

    it('credits once when the provider sends several success events (different ids) at once', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-10');
      const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(t, 'payment.succeeded', purchaseId)));
      expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(await balanceOf(t, player)).toBe(10);
      expect(await ledger(player)).toEqual([{ kind: 'purchase', delta: 10, purchase_id: purchaseId }]);
      const { rows } = await t.db.query("SELECT outcome, count(*)::int AS n FROM payment_events WHERE purchase_id = $1 GROUP BY outcome ORDER BY outcome", [purchaseId]);
      expect(rows).toEqual([{ outcome: 'applied', n: 1 }, { outcome: 'ignored', n: 5 }]);
    });

    it('the database itself refuses a second purchase entry for one purchase, a backward move and a removal', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player);
      const walletId = (await t.db.query<{ id: string }>('SELECT id FROM wallets WHERE player_id = $1', [player.playerId])).rows[0]!.id;
      await expect(
        t.db.query("INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, purchase_id, hash) VALUES ($1, 2, 10, 20, 'purchase', $2, sha256('x'))", [walletId, purchaseId]),
      ).rejects.toThrow(/ledger_entries_purchase_credit_key/);
      await expect(
        t.db.query("INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, hash) VALUES ($1, 2, 10, 20, 'purchase', sha256('x'))", [walletId]),
      ).rejects.toThrow(/ledger_entries_purchase_link/);
      await expect(t.db.query("UPDATE purchases SET status = 'pending' WHERE id = $1", [purchaseId])).rejects.toThrow(/cannot go from paid to pending/);
      await expect(t.db.query('DELETE FROM purchases WHERE id = $1', [purchaseId])).rejects.toThrow(/keeps its rows/);
    });
  });

  describe('life order', () => {
    it('pending → failed → paid: a declined payment can still be paid, and credits once', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player);
      await deliver(t, 'payment.failed', purchaseId).expect(200);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('failed');
      expect(await balanceOf(t, player)).toBe(0);
      await deliver(t, 'payment.succeeded', purchaseId).expect(200);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('paid');
      expect(await balanceOf(t, player)).toBe(10);
      // A late failure does not move a paid purchase back.
      await deliver(t, 'payment.failed', purchaseId).expect(200);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('paid');
      expect(await balanceOf(t, player)).toBe(10);
    });

    it('paid → refunded takes the coins back once; a second refund changes nothing', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(0);
      expect(await ledger(player)).toEqual([
        { kind: 'purchase', delta: 40, purchase_id: purchaseId },
        { kind: 'refund', delta: -40, purchase_id: purchaseId },
      ]);
      expect(await frozenAt(player)).toBeNull();
      // Paying again does not credit again.
      await deliver(t, 'payment.succeeded', purchaseId).expect(200);
      expect(await balanceOf(t, player)).toBe(0);
    });

    it('never takes a refund below 0: what could not be taken back stays as unrecoveredCoins', async () => {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev, { coinsPerCredit: 3 });
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-10');
      const { sessionId } = await startSession(t, player, game.slug);
      await insertCoin(t, player, sessionId);
      expect(await balanceOf(t, player)).toBe(7);
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', unrecoveredCoins: 3 });
      expect(await balanceOf(t, player)).toBe(0);
      // A dispute after the refund freezes and takes nothing more.
      await fundPlayer(t, player, 5);
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 3 });
      expect(await balanceOf(t, player)).toBe(5);
      expect(await frozenAt(player)).not.toBeNull();
      // And a refund after the dispute changes nothing.
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      expect(await balanceOf(t, player)).toBe(5);
      expect((await ledger(player)).map((e) => e.kind)).toEqual(['purchase', 'debit', 'refund', 'credit']);
    });

    it('a refund of a purchase whose coins are all spent takes nothing and writes no entry', async () => {
      const player = await signUpVerifiedPlayer(t);
      const first = await paidPurchase(t, player);
      const second = await paidPurchase(t, player);
      await deliver(t, 'payment.refunded', first).expect(200);
      await deliver(t, 'payment.refunded', second).expect(200);
      expect(await purchaseOf(t, player, first)).toMatchObject({ status: 'refunded', unrecoveredCoins: 0 });
      expect(await purchaseOf(t, player, second)).toMatchObject({ status: 'refunded', unrecoveredCoins: 0 });
      const third = await paidPurchase(t, player);
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev, { coinsPerCredit: 5 });
      const { sessionId } = await startSession(t, player, game.slug);
      await insertCoin(t, player, sessionId);
      t.clock.advance(550);
      await insertCoin(t, player, sessionId);
      expect(await balanceOf(t, player)).toBe(0);
      await deliver(t, 'payment.refunded', third).expect(200);
      expect(await purchaseOf(t, player, third)).toMatchObject({ status: 'refunded', unrecoveredCoins: 10 });
      expect((await ledger(player)).filter((e) => e.purchase_id === third).map((e) => e.kind)).toEqual(['purchase']);
    });

    it('paid → disputed takes the coins back and freezes the wallet', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await paidPurchase(t, player, 'pack-40');
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(0);
      expect(await frozenAt(player)).not.toBeNull();
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      expect((await ledger(player)).map((e) => e.kind)).toEqual(['purchase', 'refund']);
    });

    it('keeps a refund that arrives before the payment and applies it right after the payment lands', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-40');
      const refund = eventId();
      await deliver(t, 'payment.refunded', purchaseId, refund).expect(200);
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');
      expect((await t.db.query('SELECT outcome FROM payment_events WHERE event_id = $1', [refund])).rows).toEqual([{ outcome: 'deferred' }]);
      await deliver(t, 'payment.failed', purchaseId).expect(200);
      await deliver(t, 'payment.succeeded', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(0);
      expect((await ledger(player)).map((e) => [e.kind, e.delta])).toEqual([['purchase', 40], ['refund', -40]]);
      expect((await t.db.query('SELECT outcome FROM payment_events WHERE event_id = $1', [refund])).rows).toEqual([{ outcome: 'applied' }]);
      expect(await frozenAt(player)).toBeNull();
    });

    it('keeps a dispute (and a refund) that arrive before the payment: paid, then disputed and frozen, coins taken once', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-10');
      await deliver(t, 'payment.disputed', purchaseId).expect(200);
      await deliver(t, 'payment.refunded', purchaseId).expect(200);
      expect(await frozenAt(player)).toBeNull();
      await deliver(t, 'payment.succeeded', purchaseId).expect(200);
      expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed', unrecoveredCoins: 0 });
      expect(await balanceOf(t, player)).toBe(0);
      expect((await ledger(player)).map((e) => [e.kind, e.delta])).toEqual([['purchase', 10], ['refund', -10]]);
      expect(await frozenAt(player)).not.toBeNull();
    });

    it('ends in the same state whatever the order of succeeded, refunded and a duplicate (every permutation)', async () => {
      const orders = [
        ['pay', 'refund', 'dup'], ['pay', 'dup', 'refund'], ['refund', 'pay', 'dup'],
        ['refund', 'dup', 'pay'], ['dup', 'pay', 'refund'], ['dup', 'refund', 'pay'],
      ];
      for (const order of orders) {
        const player = await signUpVerifiedPlayer(t);
        const purchaseId = await pendingPurchase(t, player, 'pack-10');
        const pay = eventId();
        const bodies: Record<string, string> = {
          pay: eventBody('payment.succeeded', purchaseId, pay),
          dup: eventBody('payment.succeeded', purchaseId, pay),
          refund: eventBody('payment.refunded', purchaseId),
        };
        for (const step of order) await postSandbox(t, bodies[step]!, sign(secret, bodies[step]!)).expect(200);
        expect({ order, purchase: await purchaseOf(t, player, purchaseId), balance: await balanceOf(t, player) }).toEqual({
          order,
          purchase: expect.objectContaining({ status: 'refunded', unrecoveredCoins: 0 }),
          balance: 0,
        });
        expect((await ledger(player)).map((e) => e.kind)).toEqual(['purchase', 'refund']);
      }
    });
  });

  describe('a frozen wallet', () => {
    let player: Player;
    let slug: string;
    let sessionId: string;
    let earlierKey: string;
    let earlierAnswer: Record<string, unknown>;
    let earlierPurchaseKey: string;

    beforeAll(async () => {
      const dev = await createDeveloper(t);
      slug = (await publishGame(t, dev, { coinsPerCredit: 1 })).slug;
      player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 20);
      sessionId = (await startSession(t, player, slug)).sessionId;
      earlierKey = idempotencyKey('before-freeze');
      earlierAnswer = (await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: earlierKey }).expect(200)).body;
      earlierPurchaseKey = idempotencyKey('buy-before-freeze');
      await buy(t, player, 'pack-10', earlierPurchaseKey).expect(201);
      const disputed = await paidPurchase(t, player);
      await deliver(t, 'payment.disputed', disputed).expect(200);
      expect(await frozenAt(player)).not.toBeNull();
      t.clock.advance(550); // past insert-coin's 1 per 500 ms
    });

    it('refuses new insert-coins with 403 WALLET_FROZEN and debits nothing; a replay still answers as before', async () => {
      const before = await balanceOf(t, player);
      const res = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('frozen') });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'WALLET_FROZEN', message: expect.any(String) });
      expect(await balanceOf(t, player)).toBe(before);
      const replay = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: earlierKey }).expect(200);
      expect(replay.body).toEqual({ ...earlierAnswer, replayed: true });
    });

    it('refuses a freeze that landed after the login session was read: the claim reads the wallet, and the debit statement checks it too', async () => {
      const walletId = (await t.db.query<{ id: string }>('SELECT id FROM wallets WHERE player_id = $1', [player.playerId])).rows[0]!.id;
      const loginSessionId = (await t.db.query<{ id: string }>('SELECT id FROM login_sessions WHERE account_id = $1 AND revoked_at IS NULL', [player.accountId])).rows[0]!.id;
      const before = await balanceOf(t, player);
      // A caller as a login session kept from before the freeze gives it: nothing in it says frozen.
      const caller = { accountId: player.accountId, playerId: player.playerId, walletId, loginSessionId };
      await expect(t.app.nest.get(InsertCoinService).insertCoin(caller, sessionId, { idempotencyKey: idempotencyKey('race') })).rejects.toBeInstanceOf(WalletFrozenError);
      // The debit statement alone, as when the freeze commits between the claim and the debit.
      const { rows } = await t.db.query<{ game_id: string; developer_id: string }>('SELECT ps.game_id, g.developer_id FROM play_sessions ps JOIN games g ON g.id = ps.game_id WHERE ps.id = $1', [sessionId]);
      const debit = { walletId, coins: 1, insertionId: randomUUID(), playSessionId: sessionId, gameId: rows[0]!.game_id, playerId: player.playerId, developerId: rows[0]!.developer_id };
      await expect(t.app.nest.get(UnitOfWork).run(() => t.app.nest.get(WalletService).payForInsertion(debit))).rejects.toBeInstanceOf(WalletFrozenError);
      expect(await balanceOf(t, player)).toBe(before);
    });

    it('refuses new purchases with 403 WALLET_FROZEN after validation; a repeat of an earlier key answers 200', async () => {
      expect((await buy(t, player, 'pack-10').expect(403)).body.error).toBe('WALLET_FROZEN');
      expect((await buy(t, player, 'no-such-pack').expect(400)).body.error).toBe('INVALID_REQUEST');
      const repeat = await buy(t, player, 'pack-10', earlierPurchaseKey).expect(200);
      expect(repeat.body.status).toBe('pending');
      // Its payment still lands: the money did arrive.
      const before = await balanceOf(t, player);
      await deliver(t, 'payment.succeeded', repeat.body.purchaseId).expect(200);
      expect(await balanceOf(t, player)).toBe(before + 10);
    });

    it('leaves play sessions, scores and admin credits alone', async () => {
      await startSession(t, player, slug);
      const scored = await t.http().post(`/api/play/sessions/${sessionId}/score`).set('Cookie', player.cookie).send({ score: 10, idempotencyKey: idempotencyKey('score') });
      expect(scored.status).toBe(200);
      const before = await balanceOf(t, player);
      await fundPlayer(t, player, 3);
      expect(await balanceOf(t, player)).toBe(before + 3);
    });

    it('an admin unfreezes it (audited once); coins can be spent and bought again', async () => {
      const admin = await adminCookie(t);
      const res = await t.http().post(`/api/admin/wallets/${player.accountId}/unfreeze`).set('Cookie', admin).expect(200);
      expect(res.body.user).toMatchObject({ id: player.accountId, walletFrozenAt: null, bannedAt: null, balance: await balanceOf(t, player), linked: true });
      await t.http().post(`/api/admin/wallets/${player.accountId}/unfreeze`).set('Cookie', admin).expect(200);
      const { rows } = await t.db.query("SELECT action FROM audit_log WHERE target_id = $1 AND action LIKE 'wallet.%freeze' ORDER BY id", [player.accountId]);
      expect(rows).toEqual([{ action: 'wallet.unfreeze' }]);
      // Right away: a refusal for a frozen wallet was no attempt (it comes before the limit).
      await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('thawed') }).expect(200);
      await buy(t, player, 'pack-10').expect(201);
    });
  });

  describe('POST /api/admin/wallets/{userId}/freeze', () => {
    it('freezes (the §18 user object, audited once), and the player feels it at once', async () => {
      const admin = await adminCookie(t);
      const player = await signUpVerifiedPlayer(t);
      const res = await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', admin).expect(200);
      expect(res.body).toEqual({
        user: {
          id: player.accountId,
          email: player.email,
          emailVerified: true,
          displayName: player.displayName,
          roles: ['player'],
          linked: true,
          balance: 0,
          bannedAt: null,
          walletFrozenAt: expect.any(String),
        },
      });
      const again = await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', admin).expect(200);
      expect(again.body.user.walletFrozenAt).toBe(res.body.user.walletFrozenAt);
      const { rows } = await t.db.query("SELECT action, target_type, request_id FROM audit_log WHERE target_id = $1 AND action = 'wallet.freeze'", [player.accountId]);
      expect(rows).toEqual([{ action: 'wallet.freeze', target_type: 'user', request_id: res.headers['x-request-id'] }]);
      expect((await buy(t, player).expect(403)).body.error).toBe('WALLET_FROZEN');
    });

    it('answers 403 to non-admins, 404 for unknown users and users without a wallet, 400 for over-long ids, and refuses other origins', async () => {
      const admin = await adminCookie(t);
      const player = await signUpVerifiedPlayer(t);
      expect((await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
      await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).expect(401);
      expect((await t.http().post('/api/admin/wallets/00000000-0000-4000-8000-000000000000/freeze').set('Cookie', admin).expect(404)).body.error).toBe('NOT_FOUND');
      const unlinked = await signUpPlayer(t, { linked: false });
      await t.http().post(`/api/admin/wallets/${unlinked.accountId}/unfreeze`).set('Cookie', admin).expect(404);
      await t.http().post(`/api/admin/wallets/${'x'.repeat(65)}/freeze`).set('Cookie', admin).expect(400);
      await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', admin).set('Sec-Fetch-Site', 'cross-site').expect(403);
      expect(await frozenAt(player)).toBeNull();
    });
  });

  describe('the sandbox card page and its API', () => {
    it('pays with 4242 4242 4242 4242 through the webhook, declines 4000 0000 0000 0002, refuses other cards', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-40');
      const pay = (cardNumber: string, who = player) => t.http().post(`/api/sandbox/purchases/${purchaseId}/pay`).set('Cookie', who.cookie).send({ cardNumber });

      const refused = await pay('4111 1111 1111 1111').expect(400);
      expect(refused.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringContaining('4242 4242 4242 4242') });
      expect((await purchaseOf(t, player, purchaseId)).status).toBe('pending');

      const declined = await pay('4000 0000 0000 0002').expect(200);
      expect(declined.body).toMatchObject({ purchaseId, status: 'failed' });
      expect(await balanceOf(t, player)).toBe(0);

      const paid = await pay('4242424242424242').expect(200);
      expect(paid.body).toMatchObject({ purchaseId, status: 'paid', coins: 40 });
      expect(await balanceOf(t, player)).toBe(40);
      await pay('4242 4242 4242 4242').expect(200);
      expect(await balanceOf(t, player)).toBe(40);
      const { rows } = await t.db.query('SELECT type, outcome FROM payment_events WHERE purchase_id = $1 ORDER BY received_at', [purchaseId]);
      expect(rows).toEqual([{ type: 'payment.failed', outcome: 'applied' }, { type: 'payment.succeeded', outcome: 'applied' }]);

      const other = await signUpVerifiedPlayer(t);
      expect((await pay('4242 4242 4242 4242', other).expect(404)).body.error).toBe('NOT_FOUND');
      await t.http().post(`/api/sandbox/purchases/${purchaseId}/pay`).set('Cookie', await adminCookie(t)).send({ cardNumber: '4242 4242 4242 4242' }).expect(404);
    });

    it('lists the purchases on /me and offers "Buy coins" with one button per pack to a player', async () => {
      const player = await signUpVerifiedPlayer(t);
      await paidPurchase(t, player, 'pack-40');
      const me = await t.http().get('/me').set('Cookie', player.cookie).expect(200);
      expect(me.text).toMatch(/<caption[^>]*>Purchases<\/caption>/);
      expect(me.text).toMatch(/<button type="button"[^>]*data-buy-toggle[^>]*>Buy coins<\/button>/);
      for (const coins of [10, 40, 100]) expect(me.text).toMatch(new RegExp(`data-pack="pack-${coins}"[^>]*>Buy ${coins} coins</button>`));
      expect(me.text).toContain('data-return="/me"');
      expect(me.text).toContain('Coins bought');
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      const theirs = await t.http().get('/me').set('Cookie', unlinked.cookie).expect(200);
      expect(theirs.text).toMatch(/<caption[^>]*>Purchases<\/caption>/);
      expect(theirs.text).not.toContain('Buy coins');
    });

    it('serves the checkout page to the owner only: sign-in first, the 404 page for anyone else (admins too)', async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player, 'pack-100');
      const signedOut = await t.http().get(`/checkout/${purchaseId}?return=/me`).expect(302);
      expect(signedOut.headers.location).toBe(`/auth/login?next=${encodeURIComponent(`/checkout/${purchaseId}?return=/me`)}`);
      const page = await t.http().get(`/checkout/${purchaseId}?return=/play/some-game`).set('Cookie', player.cookie).expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('100 coins');
      expect(page.text).toContain('$25');
      expect(page.text).toMatch(/<label for="card-number">Card number<\/label>/);
      expect(page.text).toMatch(/<button type="submit"[^>]*>Pay<\/button>/);
      expect(page.text).toContain(`action="/api/sandbox/purchases/${purchaseId}/pay"`);
      expect(page.text).not.toContain('Payment received');

      await t.http().post(`/api/sandbox/purchases/${purchaseId}/pay`).set('Cookie', player.cookie).send({ cardNumber: '4000 0000 0000 0002' }).expect(200);
      const declined = await t.http().get(`/checkout/${purchaseId}?return=/play/some-game`).set('Cookie', player.cookie).expect(200);
      expect(declined.text).toContain('Payment declined');
      expect(declined.text).toMatch(/href="\/play\/some-game">Continue<\/a>/);
      await t.http().post(`/api/sandbox/purchases/${purchaseId}/pay`).set('Cookie', player.cookie).send({ cardNumber: '4242 4242 4242 4242' }).expect(200);
      const paid = await t.http().get(`/checkout/${purchaseId}?return=//evil.example`).set('Cookie', player.cookie).expect(200);
      expect(paid.text).toContain('Payment received');
      expect(paid.text).toMatch(/href="\/me">Continue<\/a>/);
      expect(paid.text).not.toContain('Card number');

      for (const cookie of [(await signUpVerifiedPlayer(t)).cookie, await adminCookie(t)]) {
        const res = await t.http().get(`/checkout/${purchaseId}`).set('Cookie', cookie).expect(404);
        expect(res.text).toContain('Not found</h1>');
        expect(res.text).not.toContain('100 coins');
      }
      await t.http().get('/checkout/00000000-0000-4000-8000-000000000000').set('Cookie', player.cookie).expect(404);
      await t.http().get(`/checkout/${'x'.repeat(65)}`).set('Cookie', player.cookie).expect(404);
    });
  });
});
