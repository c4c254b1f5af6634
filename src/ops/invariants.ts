import type { Pool, PoolClient } from 'pg';
import { BooksCheck, BooksCheckName, runBooksChecks } from '../modules/books';

/**
 * `npm run check:invariants`' report: the books' checks (CONTRACT §22, src/modules/books/books.checks.ts,
 * the one implementation the reconciliation answers with), read in one snapshot, against whatever
 * the service (or a load test, or a fault test) left in the database.
 */
export interface InvariantViolation {
  /** The §22 check the rule belongs to. */
  check: BooksCheckName;
  /** The rule that does not hold. */
  invariant: string;
  rows: Record<string, unknown>[];
}

export interface InvariantReport {
  ok: boolean;
  /** Each of the eight checks, by name, as the reconciliation answers them. */
  checks: BooksCheck[];
  /** Every rule that does not hold (empty when every check is ok). */
  violations: InvariantViolation[];
  totals: {
    wallets: number;
    ledgerEntries: number;
    insertions: number;
    scores: number;
    unlocks: number;
    purchases: number;
    voids: number;
    creditedCoins: string;
    spentCoins: string;
    purchasedCoins: string;
    refundedCoins: string;
    voidedCoins: string;
  };
}

function isPool(db: Pool | PoolClient): db is Pool {
  return typeof (db as Pool).connect === 'function' && typeof (db as PoolClient).release !== 'function';
}

/** Runs the books' checks in one REPEATABLE READ, READ ONLY transaction: on a client of its own when given a pool; a client given must not be in a transaction. */
export async function checkInvariants(db: Pool | PoolClient): Promise<InvariantReport> {
  const client = isPool(db) ? await db.connect() : db;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    try {
      const checks = await runBooksChecks(client);
      const { rows } = await client.query(`
        SELECT (SELECT COUNT(*) FROM wallets)::int AS wallets,
               (SELECT COUNT(*) FROM ledger_entries)::int AS "ledgerEntries",
               (SELECT COUNT(*) FROM insertions)::int AS insertions,
               (SELECT COUNT(*) FROM scores)::int AS scores,
               (SELECT COUNT(*) FROM achievement_unlocks)::int AS unlocks,
               (SELECT COUNT(*) FROM purchases)::int AS purchases,
               (SELECT COUNT(*) FROM insertion_voids)::int AS voids,
               (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE kind = 'credit')::text AS "creditedCoins",
               (SELECT COALESCE(-SUM(delta), 0) FROM ledger_entries WHERE kind = 'debit')::text AS "spentCoins",
               (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE kind = 'purchase')::text AS "purchasedCoins",
               (SELECT COALESCE(-SUM(delta), 0) FROM ledger_entries WHERE kind = 'refund')::text AS "refundedCoins",
               (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE kind = 'void')::text AS "voidedCoins"`);
      const violations = checks.flatMap((check) => check.details.problems.map((problem) => ({ check: check.name, invariant: problem.rule, rows: problem.rows })));
      return { ok: checks.every((check) => check.ok), checks, violations, totals: rows[0] };
    } finally {
      await client.query('ROLLBACK');
    }
  } finally {
    if (isPool(db)) (client as PoolClient).release();
  }
}
