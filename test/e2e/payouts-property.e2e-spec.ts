/**
 * Property (fast-check), CONTRACT §22: whatever the interleaving of insert-coins, voids, payout
 * runs, mark-paid and fail — the steps of a batch sent at the same moment, against the real service
 * and database — no payout ever exceeds what was available when it was made (the balance it read,
 * which is exactly the ledger before its entry, less what was held), no developer is ever paid
 * more than it earned, every developer's ledger sum is its balance, every failed payout (and no
 * other) has its one reversal, and every chain is whole.
 */
import fc from 'fast-check';
import { findChainBreaks } from '../../src/modules/wallet';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession } from '../support/play';

type Step = { kind: 'insertCoin' } | { kind: 'void' | 'markPaid' | 'fail'; pick: number } | { kind: 'run' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'insertCoin' }),
  fc.constant<Step>({ kind: 'run' }),
  fc.record({ kind: fc.constantFrom('void' as const, 'markPaid' as const, 'fail' as const), pick: fc.nat({ max: 7 }) }),
);

/** Batches of steps: the steps of one batch are sent at once. */
const scenario = fc.array(fc.array(step, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 });

describe('payouts property: never more than available, whatever runs at the same time', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    // Nothing held (so today's earnings are available) and a 50-cent minimum: one insertion of 5 coins ($0.875) is payable.
    t = await createWorldApp({ env: { PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '0.5' } });
    admin = await adminCookie(t);
  });
  afterAll(() => t.close());

  async function checkBooks(): Promise<void> {
    // Every payout: its balance is the developer's ledger before its entry (every shard was locked), and it paid at most that less what was held.
    const payouts = await t.db.query<{ id: string; amount: string; before: string; held: string; ledger_before: string; status: string; reversals: number; entries: number }>(`
      SELECT p.id::text, p.amount_mills::text AS amount, p.balance_before_mills::text AS before, p.held_mills::text AS held, p.status,
             (SELECT COALESCE(sum(e.amount_mills), 0) FROM developer_ledger_entries e WHERE e.developer_id = p.developer_id AND e.id < x.id)::text AS ledger_before,
             (SELECT count(*)::int FROM developer_ledger_entries r WHERE r.payout_id = p.id AND r.kind = 'payout_reversal') AS reversals,
             (SELECT count(*)::int FROM developer_ledger_entries r WHERE r.payout_id = p.id AND r.kind = 'payout') AS entries
        FROM payouts p JOIN developer_ledger_entries x ON x.payout_id = p.id AND x.kind = 'payout'`);
    for (const p of payouts.rows) {
      expect(BigInt(p.before)).toBe(BigInt(p.ledger_before));
      expect(BigInt(p.amount)).toBeLessThanOrEqual(BigInt(p.before) - BigInt(p.held));
      expect(BigInt(p.amount) % 10n).toBe(0n);
      expect(p.entries).toBe(1);
      expect(p.reversals).toBe(p.status === 'failed' ? 1 : 0);
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM payouts')).rows[0].n).toBe(payouts.rows.length);
    // No developer paid more than it earned; the ledger's sum is the balance.
    const developers = await t.db.query<{ earned: string; paid: string; ledger: string; balance: string }>(`
      SELECT (SELECT COALESCE(sum(amount_mills), 0) FROM developer_ledger_entries e WHERE e.developer_id = d.id AND kind = 'earning')::text AS earned,
             (SELECT COALESCE(sum(amount_mills), 0) FROM payouts p WHERE p.developer_id = d.id AND p.status <> 'failed')::text AS paid,
             (SELECT COALESCE(sum(amount_mills), 0) FROM developer_ledger_entries e WHERE e.developer_id = d.id)::text AS ledger,
             (SELECT sum(balance_mills) FROM developer_balances b WHERE b.developer_id = d.id)::text AS balance
        FROM developers d`);
    for (const d of developers.rows) {
      expect(BigInt(d.paid)).toBeLessThanOrEqual(BigInt(d.earned));
      expect(d.ledger).toBe(d.balance);
    }
    expect(await findChainBreaks(t.db)).toEqual([]);
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  }

  it('holds for generated interleavings, the books checked after every run', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (batches) => {
        const dev: Developer = await createDeveloper(t);
        const game = await publishGame(t, dev, { coinsPerCredit: 5 });
        await t.http().put('/api/portal/payout-method').set('Cookie', dev.cookie).send({ kind: 'sandbox' }).expect(200);
        const player = await signUpVerifiedPlayer(t);
        await fundPlayer(t, player, 200);
        // One insertion to start from, so voids have something to take back.
        const insertions = [(await paidSession(t, player, game.slug)).insertionId];
        const payouts: string[] = [];

        const run = async (s: Step): Promise<void> => {
          switch (s.kind) {
            case 'insertCoin':
              insertions.push((await paidSession(t, player, game.slug)).insertionId);
              return;
            case 'void': {
              const res = await t.http().post(`/api/admin/insertions/${insertions[s.pick % insertions.length]}/void`).set('Cookie', admin).send({ reason: 'property', idempotencyKey: idempotencyKey('pvoid') });
              expect(res.status).toBe(200);
              return;
            }
            case 'run': {
              const res = await t.http().post('/api/admin/payout-runs').set('Cookie', admin).send({ idempotencyKey: idempotencyKey('prun') });
              expect(res.status).toBe(201);
              for (const p of res.body.payouts as { payoutId: string; developerId: string }[]) if (p.developerId === dev.developerId) payouts.push(p.payoutId);
              return;
            }
            case 'markPaid':
            case 'fail': {
              if (payouts.length === 0) return;
              const id = payouts[s.pick % payouts.length]!;
              const path = s.kind === 'markPaid' ? 'mark-paid' : 'fail';
              const res = await t.http().post(`/api/admin/payouts/${id}/${path}`).set('Cookie', admin).send(s.kind === 'markPaid' ? { reference: 'P-1' } : { reason: 'Property' });
              expect([200, 409]).toContain(res.status);
              const status = (await t.db.query('SELECT status FROM payouts WHERE id = $1', [id])).rows[0].status;
              if (res.status === 200) expect(res.body.status).toBe(s.kind === 'markPaid' ? 'paid' : 'failed');
              else expect(status).toBe(s.kind === 'markPaid' ? 'failed' : 'paid');
              return;
            }
          }
        };
        for (const batch of batches) await Promise.all(batch.map(run));
        await checkBooks();
      }),
      { numRuns: 6 },
    );
  });
});
