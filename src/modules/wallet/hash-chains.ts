import { CHAIN_GENESIS_SQL, chainHashSql, DEVELOPER_LEDGER_SHARDS } from './ledger-append';

/** Where a ledger's chain breaks first (CONTRACT §22): the ledger, whose it is, and the entry. */
export interface ChainBreak {
  ledger: 'wallet' | 'developer';
  /** The wallet's or the developer's id. */
  ledgerId: string;
  /** The developer ledger's shard whose chain breaks (null for a wallet). */
  shard: number | null;
  /** The first entry that does not chain (null when only the head is wrong). */
  entryId: string | null;
  seq: number | null;
  problem: string;
}

/** What the check reads with: a `pg` Pool or client, or anything answering `{ rows }`. */
export interface ChainReader {
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
}

const PREVIOUS = (alias: string) => `COALESCE(lag(${alias}.hash) OVER w, ${CHAIN_GENESIS_SQL})`;

const WALLET_EXPECTED = chainHashSql('wallet', PREVIOUS('e'), {
  wallet_id: 'e.wallet_id', seq: 'e.seq', kind: 'e.kind', delta: 'e.delta', balance_after: 'e.balance_after',
  reason: 'e.reason', purchase_id: 'e.purchase_id', created_at: 'e.created_at',
});
const DEVELOPER_EXPECTED = chainHashSql('developer', PREVIOUS('e'), {
  developer_id: 'e.developer_id', shard: 'e.shard', seq: 'e.seq', kind: 'e.kind', amount_mills: 'e.amount_mills', balance_after_mills: 'e.balance_after_mills',
  insertion_id: 'e.insertion_id', game_id: 'e.game_id', coins: 'e.coins', gross_mills: 'e.gross_mills', payout_id: 'e.payout_id', created_at: 'e.created_at',
});

/**
 * Every chain recomputed from its entries (one pass over each ledger, in seq order: each wallet's,
 * each shard of each developer's), and each head compared with its newest entry; one row per broken
 * chain, its first break. An entry breaks the
 * chain when its hash is not sha256(the previous entry's stored hash || its own fields) — an amount
 * changed, or an entry inserted without the right hash — or when its seq does not follow the previous
 * one (an entry deleted). A head breaks it when its last_seq, balance or last_hash is not the newest
 * entry's (the newest entry deleted). The one implementation: check:invariants and the books use it.
 */
export const CHAIN_BREAKS_SQL = `
  WITH wallet_entries AS (
    SELECT 'wallet'::text AS ledger, e.wallet_id::text AS ledger_id, NULL::integer AS shard, e.id::text AS entry_id, e.seq, lag(e.seq) OVER w AS previous_seq,
           row_number() OVER w AS position, e.hash = ${WALLET_EXPECTED} AS chained
      FROM ledger_entries e
    WINDOW w AS (PARTITION BY e.wallet_id ORDER BY e.seq)
  ), developer_entries AS (
    SELECT 'developer'::text AS ledger, e.developer_id::text AS ledger_id, e.shard::integer, e.id::text AS entry_id, e.seq, lag(e.seq) OVER w AS previous_seq,
           row_number() OVER w AS position, e.hash = ${DEVELOPER_EXPECTED} AS chained
      FROM developer_ledger_entries e
    WINDOW w AS (PARTITION BY e.developer_id, e.shard ORDER BY e.seq)
  ), entry_breaks AS (
    SELECT ledger, ledger_id, shard, entry_id, seq,
           CASE WHEN seq <> position THEN 'seq ' || seq || ' follows ' || COALESCE('seq ' || previous_seq, 'nothing') || ': an entry is missing'
                ELSE 'its hash is not sha256 of the previous hash and its fields: the entry was changed or written outside the append' END AS problem
      FROM (SELECT * FROM wallet_entries UNION ALL SELECT * FROM developer_entries) entries
     WHERE seq <> position OR NOT chained
  ), head_breaks AS (
    SELECT 'wallet'::text AS ledger, w.id::text AS ledger_id, NULL::integer AS shard, NULL::text AS entry_id, NULL::integer AS seq,
           'its head (balance, last_seq, last_hash) is not its newest entry''s' AS problem
      FROM wallets w
      LEFT JOIN LATERAL (SELECT seq, balance_after, hash FROM ledger_entries x WHERE x.wallet_id = w.id ORDER BY seq DESC LIMIT 1) n ON true
     WHERE (w.balance, w.last_seq, w.last_hash) IS DISTINCT FROM (COALESCE(n.balance_after, 0), COALESCE(n.seq, 0), COALESCE(n.hash, ${CHAIN_GENESIS_SQL}))
    UNION ALL
    SELECT 'developer', d.developer_id::text, d.shard::integer, NULL, NULL, CASE WHEN b.developer_id IS NULL THEN 'its head is missing' ELSE 'its head (balance_mills, last_seq, last_hash) is not its newest entry''s' END
      FROM (SELECT developer_id, shard FROM developer_balances UNION SELECT developer_id, shard FROM developer_ledger_entries
            UNION SELECT id, s FROM developers, generate_series(0, ${DEVELOPER_LEDGER_SHARDS - 1}) s) d
      LEFT JOIN developer_balances b ON b.developer_id = d.developer_id AND b.shard = d.shard
      LEFT JOIN LATERAL (SELECT seq, balance_after_mills, hash FROM developer_ledger_entries x WHERE x.developer_id = d.developer_id AND x.shard = d.shard ORDER BY seq DESC LIMIT 1) n ON true
     WHERE b.developer_id IS NULL
        OR (b.balance_mills, b.last_seq, b.last_hash) IS DISTINCT FROM (COALESCE(n.balance_after_mills, 0), COALESCE(n.seq, 0), COALESCE(n.hash, ${CHAIN_GENESIS_SQL}))
  )
  SELECT DISTINCT ON (ledger, ledger_id, shard) ledger, ledger_id AS "ledgerId", shard, entry_id AS "entryId", seq, problem
    FROM (SELECT * FROM entry_breaks UNION ALL SELECT * FROM head_breaks) breaks
   ORDER BY ledger, ledger_id, shard, seq NULLS LAST`;

/** Every broken chain, its first break; empty when every wallet's chain and every shard of every developer's is whole. */
export async function findChainBreaks(db: ChainReader): Promise<ChainBreak[]> {
  const { rows } = await db.query(CHAIN_BREAKS_SQL);
  return rows as unknown as ChainBreak[];
}
