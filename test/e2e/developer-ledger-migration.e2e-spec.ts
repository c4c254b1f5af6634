import type { Pool } from 'pg';
import { MIGRATIONS } from '../../migrations';
import { ChainLedgerEntries1796890000000 } from '../../migrations/1796890000000-chain-ledger-entries';
import { createDataSource, runMigrations } from '../../src/database/data-source';
import { findChainBreaks } from '../../src/modules/wallet';
import { DEVELOPER_LEDGER_SHARDS } from '../../src/modules/wallet/ledger-append';
import { checkInvariants } from '../../src/ops/invariants';
import { testPool } from '../support/database';
import { adminCookie, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { deliver, paidPurchase } from '../support/payments';
import { fundPlayer, idempotencyKey, paidSession } from '../support/play';

/**
 * The migrations of issue 30 on a database that already holds money: wallet entries of every
 * writer (credits, debits, purchases, refunds, voids) and developers' earnings and voids. The
 * history is made by the service itself, then the two migrations are undone (their columns and
 * tables go; the entries, earnings and voids stay, as they were before) and applied again. The
 * migration must chain every existing wallet entry and move every earning and void into the
 * developer ledger exactly as the live appends wrote them: same seq, amounts, balances, times and
 * hashes (which also shows that the migration's copy of the encoding and of the shard rule is the
 * service's), every developer's shard heads set.
 */
describe('migration: chain the ledgers and move earnings into the developer ledger', () => {
  const POOL = { dbPoolSize: 2, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 10000 };

  async function snapshot(db: Pool) {
    const wallet = await db.query(
      `SELECT wallet_id, seq, delta, balance_after::text, kind, reason, purchase_id, created_at, encode(hash, 'hex') AS hash FROM ledger_entries ORDER BY wallet_id, seq`,
    );
    const heads = await db.query(`SELECT id, balance::text, last_seq, encode(last_hash, 'hex') AS last_hash FROM wallets ORDER BY id`);
    const developer = await db.query(
      `SELECT developer_id, shard, seq, kind, amount_mills::text, balance_after_mills::text, insertion_id, payout_id, created_at, encode(hash, 'hex') AS hash
         FROM developer_ledger_entries ORDER BY developer_id, shard, seq`,
    );
    const balances = await db.query(
      `SELECT developer_id, shard, balance_mills::text, last_seq, encode(last_hash, 'hex') AS last_hash FROM developer_balances ORDER BY developer_id, shard`,
    );
    return { wallet: wallet.rows, heads: heads.rows, developer: developer.rows, balances: balances.rows };
  }

  it('chains every existing wallet entry and moves earnings and voids in order, heads set, exactly as the appends write them', async () => {
    const t = await createWorldApp();
    let url: string;
    let devA: string;
    let shardOfAlice: number;
    let shardOfBob: number;
    try {
      url = t.databaseUrl;
      const admin = await adminCookie(t);
      const studioA = await createDeveloper(t, { displayName: 'Studio A' });
      devA = studioA.developerId;
      const devB = await createDeveloper(t, { displayName: 'Studio B' });
      await createDeveloper(t, { displayName: 'Studio without earnings' });
      const gameA = await publishGame(t, studioA, { coinsPerCredit: 2 });
      const gameA2 = await publishGame(t, studioA, { coinsPerCredit: 1 });
      const gameB = await publishGame(t, devB, { coinsPerCredit: 3 });
      const alice = await signUpVerifiedPlayer(t);
      const bob = await signUpVerifiedPlayer(t);
      await fundPlayer(t, alice, 20);
      await fundPlayer(t, bob, 20);
      const walletOf = async (playerId: string) => (await t.db.query('SELECT id FROM wallets WHERE player_id = $1', [playerId])).rows[0].id as string;
      shardOfAlice = parseInt((await walletOf(alice.playerId)).slice(-2), 16) % DEVELOPER_LEDGER_SHARDS;
      shardOfBob = parseInt((await walletOf(bob.playerId)).slice(-2), 16) % DEVELOPER_LEDGER_SHARDS;
      const a1 = await paidSession(t, alice, gameA.slug);
      await paidSession(t, bob, gameB.slug);
      await paidSession(t, alice, gameA2.slug);
      const b2 = await paidSession(t, bob, gameA.slug);
      await paidSession(t, alice, gameB.slug);
      for (const insertionId of [a1.insertionId, b2.insertionId]) {
        await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', admin).send({ reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') }).expect(200);
      }
      await paidSession(t, bob, gameA.slug);
      const refunded = await paidPurchase(t, alice);
      await deliver(t, 'payment.refunded', refunded).expect(200);
      await signUpVerifiedPlayer(t); // a wallet with no entry
    } finally {
      await t.close();
    }

    const db = testPool(url);
    const dataSource = createDataSource(url, POOL);
    await dataSource.initialize();
    try {
      const before = await snapshot(db);
      expect(before.developer.map((e) => e.kind).sort()).toEqual(['earning', 'earning', 'earning', 'earning', 'earning', 'earning', 'void', 'void']);
      // Every developer's shard heads, the one without earnings too; each earning and void in its wallet's shard.
      expect(before.balances).toHaveLength(3 * DEVELOPER_LEDGER_SHARDS);
      const { rows: misplaced } = await db.query(
        `SELECT e.id FROM developer_ledger_entries e JOIN insertions i ON i.id = e.insertion_id JOIN ledger_entries w ON w.id = i.ledger_entry_id
          WHERE e.shard <> ('x' || right(w.wallet_id::text, 2))::bit(8)::int % ${DEVELOPER_LEDGER_SHARDS}`,
      );
      expect(misplaced).toEqual([]);
      // Studio A's earnings come from two wallets: in two shards (unless both wallets share one).
      expect(new Set(before.developer.filter((e) => e.developer_id === devA).map((e) => e.shard)).size).toBe(shardOfAlice === shardOfBob ? 1 : 2);
      expect(new Set(before.wallet.map((e) => e.kind))).toEqual(new Set(['credit', 'debit', 'void', 'purchase', 'refund']));

      // Back to the schema before issue 30: the hashes, the developer ledger and the payouts (and the webhooks, their job runners and their pending index after them) are gone, the money stays.
      const undo = MIGRATIONS.length - MIGRATIONS.indexOf(ChainLedgerEntries1796890000000);
      expect(undo).toBe(6);
      for (let i = 0; i < undo; i++) await dataSource.undoLastMigration({ transaction: 'each' });
      const gone = await db.query(
        `SELECT to_regclass('developer_ledger_entries') AS entries, to_regclass('developer_balances') AS balances,
                (SELECT count(*)::int FROM information_schema.columns WHERE table_name IN ('ledger_entries', 'wallets') AND column_name IN ('hash', 'last_hash')) AS hash_columns,
                (SELECT count(*)::int FROM developer_earnings) AS earnings, (SELECT count(*)::int FROM insertion_voids) AS voids,
                (SELECT count(*)::int FROM ledger_entries) AS wallet_entries`,
      );
      expect(gone.rows[0]).toEqual({ entries: null, balances: null, hash_columns: 0, earnings: 6, voids: 2, wallet_entries: before.wallet.length });

      expect(await runMigrations(dataSource)).toEqual(['ChainLedgerEntries1796890000000', 'AddDeveloperLedger1796900000000', 'AddPayouts1796910000000', 'AddWebhooks1797000000000', 'AddJobRunners1797010000000', 'AddWebhookPendingIndex1797100000000']);
      expect(await snapshot(db)).toEqual(before);
      expect(await findChainBreaks(db)).toEqual([]);
      expect((await checkInvariants(db)).violations).toEqual([]);
    } finally {
      await dataSource.destroy();
      await db.end();
    }
  });
});
