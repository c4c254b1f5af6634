/**
 * Property (fast-check): whatever the interleaving of purchases, payments (some of another amount
 * or currency), duplicate deliveries, refunds whole and partial, disputes and their outcomes,
 * insert-coins, voids, admin credits and unfreezes — steps of a batch run at the same moment — every
 * money invariant holds afterwards, no balance is negative, and each purchase ends where its
 * delivered events put it in its life order (CONTRACT §19, §19.1).
 */
import fc from 'fast-check';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { idempotencyKey } from '../support/play';
import { buy, eventBody, eventId, postSandbox, sign, webhookSecret } from '../support/payments';

type Step =
  | { kind: 'buy'; pack: number }
  | { kind: 'pay' | 'duplicatePay' | 'fail' | 'refund' | 'dispute' | 'disputeWon' | 'disputeLost'; purchase: number }
  | { kind: 'partialRefund'; purchase: number; cents: number }
  | { kind: 'mismatchPay'; purchase: number; amountCents: number; currency: string }
  | { kind: 'insertCoin' }
  | { kind: 'void'; insertion: number }
  | { kind: 'credit'; coins: number }
  | { kind: 'unfreeze' };

const PACKS = ['pack-10', 'pack-40', 'pack-100'];

const event = (kind: 'pay' | 'duplicatePay' | 'fail' | 'refund' | 'dispute' | 'disputeWon' | 'disputeLost') => fc.record({ kind: fc.constant(kind), purchase: fc.nat({ max: 3 }) });

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('buy' as const), pack: fc.nat({ max: 2 }) }), weight: 3 },
  { arbitrary: event('pay'), weight: 3 },
  { arbitrary: event('duplicatePay'), weight: 2 },
  { arbitrary: event('fail'), weight: 1 },
  { arbitrary: event('refund'), weight: 2 },
  { arbitrary: event('dispute'), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('partialRefund' as const), purchase: fc.nat({ max: 3 }), cents: fc.integer({ min: 1, max: 1200 }) }), weight: 2 },
  { arbitrary: event('disputeWon'), weight: 1 },
  { arbitrary: event('disputeLost'), weight: 1 },
  {
    // Another amount (never a pack's price: 250, 1000, 2500 cents are not odd) or another currency.
    arbitrary: fc.record({
      kind: fc.constant('mismatchPay' as const),
      purchase: fc.nat({ max: 3 }),
      amountCents: fc.integer({ min: 0, max: 1500 }).map((n) => n * 2 + 1),
      currency: fc.constantFrom('usd', 'eur', 'EUR'),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('insertCoin' as const) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('void' as const), insertion: fc.nat({ max: 3 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('credit' as const), coins: fc.integer({ min: 1, max: 30 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('unfreeze' as const) }), weight: 1 },
);

/** Batches of steps: the steps of one batch are sent at once. */
const scenario = fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 10 });

describe('payments property: any interleaving keeps the money invariants', () => {
  let t: TestApp;
  let admin: string;
  let slug: string;
  let secret: string;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await adminCookie(t);
    const dev = await createDeveloper(t);
    slug = (await publishGame(t, dev, { coinsPerCredit: 3 })).slug;
    secret = await webhookSecret(t);
  });
  afterAll(() => t.close());

  it('holds for generated scenarios', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (batches) => {
        const player = await signUpVerifiedPlayer(t);
        const purchases: string[] = [];
        const prices = new Map<string, number>();
        const refundedCents = new Map<string, number>();
        const payEvents = new Map<string, string>();
        const delivered = new Map<string, Set<string>>();
        const insertions: string[] = [];
        let frozenBuys = 0;
        const note = (purchaseId: string, what: string) => delivered.set(purchaseId, (delivered.get(purchaseId) ?? new Set()).add(what));

        const send = async (type: string, purchaseId: string, id = eventId(), extra: Record<string, unknown> = {}) => {
          const body = eventBody(type, purchaseId, id, extra);
          const res = await postSandbox(t, body, sign(secret, body));
          expect(res.status).toBe(200);
        };

        const run = async (s: Step): Promise<void> => {
          switch (s.kind) {
            case 'buy': {
              const res = await buy(t, player, PACKS[s.pack]);
              expect([201, 403, 429]).toContain(res.status); // 403: a dispute froze the wallet; 429: 5 pending already (CONTRACT §19.1)
              if (res.status === 403) frozenBuys += 1;
              if (res.status === 201) {
                purchases.push(res.body.purchaseId);
                prices.set(res.body.purchaseId, Number(res.body.coins) * 25);
              }
              return;
            }
            case 'pay':
            case 'duplicatePay': {
              const purchaseId = purchases[s.purchase % Math.max(1, purchases.length)];
              if (!purchaseId) return;
              let id = payEvents.get(purchaseId);
              if (s.kind === 'pay' || !id) payEvents.set(purchaseId, (id = eventId()));
              note(purchaseId, 'paid');
              return send('payment.succeeded', purchaseId, id);
            }
            case 'fail':
            case 'refund':
            case 'dispute': {
              const purchaseId = purchases[s.purchase % Math.max(1, purchases.length)];
              if (!purchaseId) return;
              note(purchaseId, s.kind);
              return send({ fail: 'payment.failed', refund: 'payment.refunded', dispute: 'payment.disputed' }[s.kind], purchaseId);
            }
            case 'partialRefund': {
              const purchaseId = purchases[s.purchase % Math.max(1, purchases.length)];
              if (!purchaseId) return;
              // A partial refund counts wherever it lands before a dispute; the model caps the total at the price.
              note(purchaseId, 'partialRefund');
              refundedCents.set(purchaseId, (refundedCents.get(purchaseId) ?? 0) + s.cents);
              return send('payment.refunded', purchaseId, eventId(), { amountCents: s.cents, currency: 'usd' });
            }
            case 'disputeWon':
            case 'disputeLost': {
              const purchaseId = purchases[s.purchase % Math.max(1, purchases.length)];
              if (!purchaseId) return;
              note(purchaseId, s.kind);
              return send(s.kind === 'disputeWon' ? 'payment.dispute_won' : 'payment.dispute_lost', purchaseId);
            }
            case 'mismatchPay': {
              const purchaseId = purchases[s.purchase % Math.max(1, purchases.length)];
              if (!purchaseId) return;
              const amountCents = s.currency === 'usd' ? s.amountCents : prices.get(purchaseId);
              return send('payment.succeeded', purchaseId, eventId(), { amountCents, currency: s.currency });
            }
            case 'insertCoin': {
              // A play session per insertion: the 1-per-500-ms limit is per play session.
              const session = await t.http().post('/api/play/sessions').set('Cookie', player.cookie).send({ gameSlug: slug });
              expect(session.status).toBe(201);
              const res = await t.http().post(`/api/play/sessions/${session.body.sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('prop') });
              expect([200, 402, 403]).toContain(res.status);
              if (res.status === 200) insertions.push(res.body.insertionId);
              return;
            }
            case 'void': {
              const insertionId = insertions[s.insertion % Math.max(1, insertions.length)];
              if (!insertionId) return;
              const res = await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', admin).send({ reason: 'property', idempotencyKey: idempotencyKey('pvoid') });
              expect(res.status).toBe(200);
              return;
            }
            case 'credit': {
              const res = await t.http().post(`/api/admin/wallets/${player.accountId}/credits`).set('Cookie', admin).send({ coins: s.coins, reason: 'property', idempotencyKey: idempotencyKey('pcredit') });
              expect(res.status).toBe(201);
              return;
            }
            case 'unfreeze': {
              const res = await t.http().post(`/api/admin/wallets/${player.accountId}/unfreeze`).set('Cookie', admin);
              expect(res.status).toBe(200);
              return;
            }
          }
        };

        for (const batch of batches) await Promise.all(batch.map(run));

        const report = await checkInvariants(t.db);
        expect(report.violations).toEqual([]);
        const { rows: negative } = await t.db.query('SELECT id FROM wallets WHERE balance < 0');
        expect(negative).toEqual([]);

        const all = (await t.http().get('/api/me/purchases').set('Cookie', player.cookie).expect(200)).body.purchases as {
          purchaseId: string; status: string; coins: number; unrecoveredCoins: number; refundedUsd: string; checkoutUrl: string | null;
        }[];
        // A buy answered 403 leaves nothing, or, when the freeze landed while its checkout was
        // opening, its purchase failed with no checkout to pay (CONTRACT §19.1 freeze order).
        const refused = all.filter((p) => !purchases.includes(p.purchaseId));
        expect(refused.length).toBeLessThanOrEqual(frozenBuys);
        for (const p of refused) expect({ status: p.status, checkoutUrl: p.checkoutUrl, unrecoveredCoins: p.unrecoveredCoins }).toEqual({ status: 'failed', checkoutUrl: null, unrecoveredCoins: 0 });
        const listed = all.filter((p) => purchases.includes(p.purchaseId));
        expect(listed).toHaveLength(purchases.length);
        for (const p of listed) {
          const events = delivered.get(p.purchaseId) ?? new Set<string>();
          const price = p.coins * 25;
          // Where the delivered events put it, in life order, whatever their arrival order. Refunds
          // that land after a dispute change nothing, so with a dispute the refunded total may be lower.
          const refundedInFull = events.has('refund') || (refundedCents.get(p.purchaseId) ?? 0) >= price;
          const afterRefunds = refundedInFull ? 'refunded' : 'paid';
          let expected: string[] = ['pending'];
          if (events.has('paid')) {
            if (!events.has('dispute')) expected = [afterRefunds];
            else if (events.has('disputeWon') && events.has('disputeLost')) expected = ['disputed', 'paid', 'refunded'];
            else if (events.has('disputeWon')) expected = ['paid', 'refunded'];
            else expected = ['disputed'];
          } else if (events.has('fail')) {
            expected = ['failed'];
          }
          expect({ purchaseId: p.purchaseId, status: expected.includes(p.status) ? 'as expected' : p.status }).toEqual({ purchaseId: p.purchaseId, status: 'as expected' });
          if (events.has('paid') && !events.has('dispute')) {
            const refunded = refundedInFull ? price : Math.min(price, refundedCents.get(p.purchaseId) ?? 0);
            expect({ purchaseId: p.purchaseId, refundedUsd: p.refundedUsd }).toEqual({ purchaseId: p.purchaseId, refundedUsd: String(refunded / 100) });
          }
          if (!events.has('paid')) expect(p).toMatchObject({ unrecoveredCoins: 0, refundedUsd: '0' });
        }
      }),
      { numRuns: 25 },
    );
    // 25 scenarios of up to 40 steps each, on a shared 2-core machine.
  }, 300_000);
});
