import { UnitOfWork } from '../../src/database/unit-of-work';
import {
  builtDeveloperAppends,
  DEVELOPER_LEDGER_KIND_NAMES,
  developerLedgerKindsWhere,
  LEDGER_KIND_NAMES,
  ledgerAppendSql,
  ledgerKindsWhere,
} from '../../src/modules/wallet/ledger-append';
import { WalletService } from '../../src/modules/wallet/wallet.service';
import type { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { deliver, paidPurchase } from '../support/payments';
import { fundPlayer, idempotencyKey, paidSession } from '../support/play';
import { recordStatements, StatementLog } from '../support/statements';

/**
 * Issue 29 item 2: the wallet ledger has one append (src/modules/wallet/ledger-append.ts), so the hash
 * chain of issue 30 is added in one place. Every statement the app sends while each writer runs is
 * read: each one that writes ledger_entries or moves a wallet's balance must begin with the append's
 * own text for its kind, and the entries written must be exactly as many as those statements. The
 * developer ledger (issue 30) the same way: each statement writing it holds the developer append's text.
 */
const WRITES_LEDGER = /insert\s+into\s+"?ledger_entries"?/gi;
const MOVES_BALANCE = /update\s+"?wallets"?\s[\s\S]*?\bset\b[^;]*?\b"?(balance|last_seq|last_hash)"?\s*=/i;
/** The developer ledger (issue 30): its entries and its heads. */
const WRITES_DEVELOPER_LEDGER = /insert\s+into\s+"?developer_ledger_entries"?/gi;
const MOVES_DEVELOPER_HEAD = /(insert\s+into|update)\s+"?developer_balances"?/i;

describe('the one ledger append', () => {
  let t: TestApp;
  let log: StatementLog;

  beforeAll(async () => {
    t = await createWorldApp({ env: { PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '0.01' } });
    log = recordStatements(t);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  /** The append text a statement begins with, and its kind; undefined when it begins with anything else. */
  function appendOf(text: string): string | undefined {
    const as = /\),\s+(\w+) AS \(\s*INSERT INTO ledger_entries/.exec(text)?.[1];
    for (const kind of LEDGER_KIND_NAMES) {
      for (const onlyIfCovered of [false, true]) {
        if (as && text.startsWith(ledgerAppendSql(kind, { as, onlyIfCovered }).text)) return kind;
      }
    }
    return undefined;
  }

  it('every writer (insert-coin, admin credit, purchase, refund, dispute, won dispute, refund reversal, void, forfeit) writes through it, one entry per statement', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const player = await signUpVerifiedPlayer(t);
    const leaving = await signUpVerifiedPlayer(t);
    const admin = await adminCookie(t);
    // Earnings for the payout below, made before the statements are read (nothing held, PAYOUT_HOLD_DAYS=0).
    const payer = await signUpVerifiedPlayer(t);
    await fundPlayer(t, payer, 2);
    await paidSession(t, payer, game.slug);
    const entriesBefore = Number((await t.db.query('SELECT count(*) AS n FROM ledger_entries')).rows[0].n);
    const { statements: sent } = await log.during(async () => {
      await fundPlayer(t, player, 20); // credit
      const { insertionId } = await paidSession(t, player, game.slug); // debit
      await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', admin).send({ reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') }).expect(200); // void
      const refunded = await paidPurchase(t, player); // purchase
      await deliver(t, 'payment.refunded', refunded).expect(200); // refund
      const disputed = await paidPurchase(t, player);
      await deliver(t, 'payment.disputed', disputed).expect(200); // refund (the dispute's claim)
      await deliver(t, 'payment.dispute_won', disputed).expect(200); // dispute_won
      // A failed refund's coins back: only a real provider reports it (the sandbox has no such event), so through the service the webhook calls.
      const wallet = (await t.db.query('SELECT w.id FROM wallets w WHERE w.player_id = $1', [player.playerId])).rows[0].id;
      await t.app.nest.get(UnitOfWork).run(() => t.app.nest.get(WalletService).returnPurchaseCoins(wallet, refunded, 10, 'refund_reversal', 'A refund failed: coins returned'));
      await fundPlayer(t, leaving, 5);
      await t.http().post('/api/me/delete').set('Cookie', leaving.cookie).send({ currentPassword: leaving.password, confirm: 'DELETE' }).expect(204); // forfeit
      // Payouts and their reversals (CONTRACT §22): a payout run and an admin's "failed".
      await t.http().put('/api/portal/payout-method').set('Cookie', dev.cookie).send({ kind: 'sandbox' }).expect(200);
      const run = await t.http().post('/api/admin/payout-runs').set('Cookie', admin).send({ idempotencyKey: idempotencyKey('run') }).expect(201); // payout
      await t.http().post(`/api/admin/payouts/${run.body.payouts[0].payoutId}/fail`).set('Cookie', admin).send({ reason: 'Returned by the bank' }).expect(200); // payout_reversal
    });

    const writes = sent.filter((text) => text.match(WRITES_LEDGER) || MOVES_BALANCE.test(text));
    const strays = writes.filter((text) => (text.match(WRITES_LEDGER)?.length ?? 0) !== 1 || appendOf(text) === undefined);
    expect(strays).toEqual([]);
    expect(writes.map(appendOf)).toEqual(['credit', 'debit', 'void', 'purchase', 'refund', 'purchase', 'refund', 'dispute_won', 'refund_reversal', 'credit', 'forfeit']);
    // Every kind has a writer above: a new kind gets its writer added here.
    expect(new Set(writes.map(appendOf))).toEqual(new Set(LEDGER_KIND_NAMES));
    // Each of those statements wrote its one entry, and nothing else wrote any.
    const entriesAfter = Number((await t.db.query('SELECT count(*) AS n FROM ledger_entries')).rows[0].n);
    expect(entriesAfter - entriesBefore).toBe(writes.length);

    // The developer ledger: every statement that writes an entry or moves a head holds one developer append's text, one entry each.
    const developerWrites = sent.filter((text) => text.match(WRITES_DEVELOPER_LEDGER) || MOVES_DEVELOPER_HEAD.test(text));
    const developerAppendOf = (text: string) => builtDeveloperAppends().find((built) => text.includes(built.text))?.kind;
    const developerStrays = developerWrites.filter((text) => (text.match(WRITES_DEVELOPER_LEDGER)?.length ?? 0) !== 1 || developerAppendOf(text) === undefined);
    expect(developerStrays).toEqual([]);
    expect(developerWrites.map(developerAppendOf)).toEqual(['earning', 'void', 'payout', 'payout_reversal']);
    expect(new Set(developerWrites.map(developerAppendOf))).toEqual(new Set(DEVELOPER_LEDGER_KIND_NAMES));
    // The earning and the void rode the statements that already wrote the debit and the void: no statement of their own.
    expect(developerWrites.slice(0, 2).map(appendOf)).toEqual(['debit', 'void']);
    const developerEntries = Number((await t.db.query('SELECT count(*) AS n FROM developer_ledger_entries WHERE developer_id = $1', [dev.developerId])).rows[0].n);
    // ... and the payer's earning, made before the statements were read.
    expect(developerEntries).toBe(developerWrites.length + 1);
  });

  it("the database's kind constraints admit the kinds of the list, with their signs and purchase links (the migrations spell them out)", async () => {
    const { rows } = await t.db.query<{ name: string; def: string }>(
      "SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'ledger_entries'::regclass AND conname LIKE 'ledger_entries_%' AND contype = 'c'",
    );
    const kindsIn = (name: string) => [...(rows.find((r) => r.name === name)?.def ?? '').matchAll(/'(\w+)'::text/g)].map((m) => m[1]).sort();
    expect(kindsIn('ledger_entries_kind')).toEqual([...LEDGER_KIND_NAMES].sort());
    expect(kindsIn('ledger_entries_kind_sign')).toEqual(ledgerKindsWhere({ coins: 'in' }).sort());
    expect(rows.find((r) => r.name === 'ledger_entries_kind_sign')?.def).toMatch(/= \(delta > 0\)/);
    expect(kindsIn('ledger_entries_purchase_link')).toEqual(ledgerKindsWhere({ purchase: true }).sort());
    expect(rows.find((r) => r.name === 'ledger_entries_purchase_link')?.def).toMatch(/= \(purchase_id IS NOT NULL\)/);
  });

  it("the developer ledger's kind constraints admit the kinds of its list, with their signs and what each names", async () => {
    const { rows } = await t.db.query<{ name: string; def: string }>(
      "SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'developer_ledger_entries'::regclass AND contype = 'c'",
    );
    const kindsIn = (name: string) => [...(rows.find((r) => r.name === name)?.def ?? '').matchAll(/'(\w+)'::text/g)].map((m) => m[1]).sort();
    expect(kindsIn('developer_ledger_entries_kind')).toEqual([...DEVELOPER_LEDGER_KIND_NAMES].sort());
    expect(kindsIn('developer_ledger_entries_kind_sign')).toEqual(developerLedgerKindsWhere({ mills: 'in' }).sort());
    expect(rows.find((r) => r.name === 'developer_ledger_entries_kind_sign')?.def).toMatch(/= \(amount_mills > 0\)/);
    expect(kindsIn('developer_ledger_entries_insertion_link')).toEqual(developerLedgerKindsWhere({ names: 'insertion' }).sort());
    expect(kindsIn('developer_ledger_entries_payout_link')).toEqual(developerLedgerKindsWhere({ names: 'payout' }).sort());
  });
});
