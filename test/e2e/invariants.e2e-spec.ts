import { Pool } from 'pg';
import { CHAIN_GENESIS_SQL, chainHashSql } from '../../src/modules/wallet/ledger-append';
import { checkInvariants, InvariantReport } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { createTestDatabase, testPool } from '../support/database';
import { adminCookie, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession, postScore } from '../support/play';

/** A credit or debit written by SQL, hash-chained as the append would chain it (so only what the test breaks is broken). */
async function appendRaw(db: Pool, walletId: string, seq: number, delta: number, balanceAfter: number, kind: 'credit' | 'debit'): Promise<void> {
  const previous = `COALESCE((SELECT hash FROM ledger_entries WHERE wallet_id = $1 AND seq = $2 - 1), ${CHAIN_GENESIS_SQL})`;
  const hash = chainHashSql('wallet', previous, {
    wallet_id: '$1::uuid', seq: '$2::integer', kind: '$5::text', delta: '$3::integer', balance_after: '$4::bigint', reason: 'NULL', purchase_id: 'NULL', created_at: 'now()',
  });
  await db.query(`INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, created_at, hash) SELECT $1, $2, $3, $4, $5, now(), ${hash}`, [walletId, seq, delta, balanceAfter, kind]);
}

/** The names of the §22 checks that failed, in their order. */
function failed(report: InvariantReport): string[] {
  return report.checks.filter((check) => !check.ok).map((check) => check.name);
}

/**
 * The checker itself must be able to fail: rows the service would never write are put in by SQL
 * and each must be reported.
 */
describe('money invariant checker', () => {
  let db: Pool;
  let walletId: string;

  beforeAll(async () => {
    db = testPool(await createTestDatabase());
  });
  afterAll(async () => db.end());

  it('passes on an empty database', async () => {
    const report = await checkInvariants(db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.name, check.ok])).toEqual([
      ['wallet_ledgers', true], ['developer_ledgers', true], ['hash_chains', true], ['coins_conserved', true],
      ['earnings_exact', true], ['payouts_within_earnings', true], ['purchase_events', true], ['voided_scores', true],
    ]);
  });

  it('passes on a consistent credit and reports a broken balance chain', async () => {
    const account = await db.query(`INSERT INTO accounts (email, password_hash, display_name) VALUES ('inv@example.com', 'x', 'Inv') RETURNING id`);
    const player = await db.query(`INSERT INTO players (account_id, display_name) VALUES ($1, 'Inv') RETURNING id`, [account.rows[0].id]);
    walletId = (await db.query(`INSERT INTO wallets (player_id) VALUES ($1) RETURNING id`, [player.rows[0].id])).rows[0].id;
    await appendRaw(db, walletId, 1, 10, 10, 'credit');
    // The head was not moved: the wallet's balance is not its ledger's sum, its chain's head is behind, and the coins in wallets are not the ledger's.
    const unmoved = await checkInvariants(db);
    expect(failed(unmoved)).toEqual(['wallet_ledgers', 'hash_chains', 'coins_conserved']);
    expect(unmoved.violations.map((v) => [v.check, v.invariant])).toEqual([
      ['wallet_ledgers', "each wallet: its balance (the head) is its ledger's sum, and its last_seq its newest entry's"],
      ['hash_chains', "every ledger's hash chain is whole (each wallet's and each developer shard's): the first break of each broken one"],
      ['coins_conserved', 'coins purchased + credited + voided back + dispute-won back + refund reversals − refunded back − spent − forfeited = the sum of wallet balances'],
    ]);
    await db.query('UPDATE wallets w SET balance = 10, last_seq = 1, last_hash = e.hash FROM ledger_entries e WHERE e.wallet_id = w.id AND w.id = $1', [walletId]);
    expect((await checkInvariants(db)).ok).toBe(true);

    await appendRaw(db, walletId, 2, 5, 20, 'credit');
    const report = await checkInvariants(db);
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => [v.check, v.invariant])).toEqual(
      expect.arrayContaining([
        ['wallet_ledgers', 'each wallet: running balances chain from 0 by their deltas, with no gap in seq'],
        ['wallet_ledgers', "each wallet: its balance (the head) is its ledger's sum, and its last_seq its newest entry's"],
      ]),
    );
  });

  it('reports a debit without its insertion and money that is not conserved', async () => {
    const fresh = testPool(await createTestDatabase());
    try {
      const account = await fresh.query(`INSERT INTO accounts (email, password_hash, display_name) VALUES ('d@example.com', 'x', 'D') RETURNING id`);
      const player = await fresh.query(`INSERT INTO players (account_id, display_name) VALUES ($1, 'D') RETURNING id`, [account.rows[0].id]);
      const wallet = (await fresh.query(`INSERT INTO wallets (player_id) VALUES ($1) RETURNING id`, [player.rows[0].id])).rows[0].id;
      await appendRaw(fresh, wallet, 1, 10, 10, 'credit');
      await appendRaw(fresh, wallet, 2, -2, 8, 'debit');
      const report = await checkInvariants(fresh);
      expect(report.violations.map((v) => [v.check, v.invariant])).toEqual(
        expect.arrayContaining([
          ['coins_conserved', 'each debit belongs to exactly one insertion'],
          ['coins_conserved', 'coins spent (debits) = the coins of the insertions; coins voided back = the coins of the voided insertions'],
        ]),
      );
    } finally {
      await fresh.end();
    }
  });
});

describe('money invariant checker: a voided insertion keeps no live score (CONTRACT §19.1)', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('passes after a void took the score off the boards, and reports the score put back on them', async () => {
    t = await createWorldApp();
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 1);
    const { sessionId, insertionId } = await paidSession(t, player, game.slug);
    const scoreId = (await postScore(t, player, sessionId, 77).expect(200)).body.scoreId;
    await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', await adminCookie(t)).send({ reason: 'invariant test', idempotencyKey: idempotencyKey('void') }).expect(200);
    expect((await checkInvariants(t.db)).violations).toEqual([]);

    // What the race of issue 26 left behind: the void committed and the score still stands.
    await t.db.query('UPDATE scores SET removed_at = NULL WHERE id = $1', [scoreId]);
    const report = await checkInvariants(t.db);
    expect(failed(report)).toEqual(['voided_scores']);
    expect(report.violations).toEqual([{ check: 'voided_scores', invariant: 'no voided insertion has a live score (one on the boards)', rows: [{ score_id: scoreId, insertion_id: insertionId, voided_at: expect.any(Date) }] }]);
  });
});
