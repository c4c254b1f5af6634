import type { Pool, PoolClient } from 'pg';
import { CHAIN_BREAKS_SQL, DEVELOPER_LEDGER_SHARDS, DEVELOPER_LEVEL_SHARD, developerShardSql } from '../modules/wallet';

/**
 * The money invariants, checked with SQL against whatever the service (or a load test, or a
 * fault test) left in the database. Each check returns the offending rows; an empty report means
 * every invariant holds. Money is compared in exact integers: coins, and mills (1/1000 USD).
 */
export interface InvariantViolation {
  invariant: string;
  rows: Record<string, unknown>[];
}

export interface InvariantReport {
  ok: boolean;
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

/**
 * Ledger kinds: credit (admin), debit (insertion), purchase, refund (coins taken back for a refund,
 * whole or partial, or a dispute), refund_reversal (a failed refund's coins back), dispute_won (a won
 * dispute's coins back), void (an insertion's coins returned), forfeit (an erased account's remaining coins).
 * Developer ledger kinds (mills): earning (+), void (−), payout (−), payout_reversal (+).
 */
const CHECKS: { invariant: string; sql: string }[] = [
  {
    invariant: 'each wallet: running balances chain from 0 by their deltas, with no gap in seq',
    sql: `
      SELECT wallet_id, seq, delta, balance_after, expected
      FROM (
        SELECT wallet_id, seq, delta, balance_after,
               SUM(delta) OVER (PARTITION BY wallet_id ORDER BY seq) AS expected,
               ROW_NUMBER() OVER (PARTITION BY wallet_id ORDER BY seq) AS position
        FROM ledger_entries
      ) chain
      WHERE balance_after <> expected OR seq <> position
      LIMIT 20`,
  },
  {
    invariant: 'each wallet: the sum of ledger deltas equals the latest running balance',
    sql: `
      SELECT l.wallet_id, SUM(l.delta) AS sum_of_deltas, latest.balance_after AS latest_balance
      FROM ledger_entries l
      JOIN LATERAL (SELECT balance_after FROM ledger_entries x WHERE x.wallet_id = l.wallet_id ORDER BY seq DESC LIMIT 1) latest ON true
      GROUP BY l.wallet_id, latest.balance_after
      HAVING SUM(l.delta) <> latest.balance_after
      LIMIT 20`,
  },
  {
    invariant: "each wallet: its head (balance, last_seq) is its latest ledger entry's (0, 0 with none)",
    sql: `
      SELECT w.id AS wallet_id, w.balance, w.last_seq, latest.balance_after AS latest_balance, latest.seq AS latest_seq
      FROM wallets w
      LEFT JOIN LATERAL (SELECT seq, balance_after FROM ledger_entries x WHERE x.wallet_id = w.id ORDER BY seq DESC LIMIT 1) latest ON true
      WHERE w.balance <> COALESCE(latest.balance_after, 0) OR w.last_seq <> COALESCE(latest.seq, 0)
      LIMIT 20`,
  },
  {
    invariant: 'no running balance is negative',
    sql: `SELECT id, wallet_id, balance_after FROM ledger_entries WHERE balance_after < 0 LIMIT 20`,
  },
  {
    invariant: "each insertion: exactly one debit of its coins from its player's wallet",
    sql: `
      SELECT i.id AS insertion_id, i.coins, l.delta, l.kind, w.player_id AS wallet_player, i.player_id
      FROM insertions i
      LEFT JOIN ledger_entries l ON l.id = i.ledger_entry_id
      LEFT JOIN wallets w ON w.id = l.wallet_id
      WHERE l.id IS NULL OR l.kind <> 'debit' OR l.delta <> -i.coins OR w.player_id <> i.player_id
      LIMIT 20`,
  },
  {
    invariant: 'each debit belongs to exactly one insertion',
    sql: `
      SELECT l.id AS ledger_entry_id, l.delta, COUNT(i.id) AS insertions
      FROM ledger_entries l LEFT JOIN insertions i ON i.ledger_entry_id = l.id
      WHERE l.kind = 'debit'
      GROUP BY l.id, l.delta
      HAVING COUNT(i.id) <> 1
      LIMIT 20`,
  },
  {
    invariant: "each insertion: exactly one developer earning of 70% of its value, to the game's developer",
    sql: `
      SELECT i.id AS insertion_id, i.coins, COUNT(e.id) AS earnings,
             MIN(e.gross_mills) AS gross_mills, MIN(e.earned_mills) AS earned_mills
      FROM insertions i
      JOIN games g ON g.id = i.game_id
      LEFT JOIN developer_earnings e ON e.insertion_id = i.id
      GROUP BY i.id, i.coins, g.developer_id
      HAVING COUNT(e.id) <> 1
          OR MIN(e.coins) <> i.coins
          OR MIN(e.gross_mills) <> i.coins * 250
          OR MIN(e.earned_mills) <> i.coins * 175
          OR bool_or(e.developer_id <> g.developer_id)
          OR bool_or(e.game_id <> i.game_id)
      LIMIT 20`,
  },
  {
    invariant: 'each insertion: in a paid (non-test) play session of the same game and player, at its price',
    sql: `
      SELECT i.id AS insertion_id, s.id AS play_session_id, s.test_mode, i.coins, s.coins_per_credit
      FROM insertions i JOIN play_sessions s ON s.id = i.play_session_id
      WHERE s.test_mode OR s.game_id <> i.game_id OR s.player_id <> i.player_id OR i.coins <> s.coins_per_credit
      LIMIT 20`,
  },
  {
    invariant: 'each score: bound to a paid insertion of the same play session, game and player',
    sql: `
      SELECT sc.id AS score_id, sc.insertion_id, i.play_session_id, sc.play_session_id AS score_session
      FROM scores sc LEFT JOIN insertions i ON i.id = sc.insertion_id
      WHERE i.id IS NULL OR i.play_session_id <> sc.play_session_id OR i.game_id <> sc.game_id OR i.player_id <> sc.player_id
      LIMIT 20`,
  },
  {
    invariant: 'at most one score per insertion',
    sql: `SELECT insertion_id, COUNT(*) AS scores FROM scores GROUP BY insertion_id HAVING COUNT(*) > 1 LIMIT 20`,
  },
  {
    invariant: 'test-mode play sessions leave no unlocks',
    sql: `
      SELECT u.player_id, u.achievement_id FROM achievement_unlocks u
      JOIN play_sessions s ON s.id = u.play_session_id WHERE s.test_mode LIMIT 20`,
  },
  {
    invariant: 'each player: XP is 25 per unlocked achievement',
    sql: `
      SELECT p.id AS player_id, p.xp, COUNT(u.achievement_id) AS unlocks
      FROM players p LEFT JOIN achievement_unlocks u ON u.player_id = p.id
      GROUP BY p.id, p.xp
      HAVING p.xp <> 25 * COUNT(u.achievement_id)
      LIMIT 20`,
  },
  {
    invariant: 'each purchase, refund, refund_reversal or dispute_won entry: names a purchase of its own wallet',
    sql: `
      SELECT l.id AS ledger_entry_id, l.kind, l.purchase_id, l.wallet_id, p.wallet_id AS purchase_wallet
      FROM ledger_entries l LEFT JOIN purchases p ON p.id = l.purchase_id
      WHERE l.kind IN ('purchase', 'refund', 'refund_reversal', 'dispute_won') AND (p.id IS NULL OR p.wallet_id <> l.wallet_id)
      LIMIT 20`,
  },
  {
    invariant: 'no purchase credited twice, and no dispute won twice',
    sql: `
      SELECT purchase_id, kind, COUNT(*) AS entries FROM ledger_entries
      WHERE kind IN ('purchase', 'dispute_won') GROUP BY purchase_id, kind HAVING COUNT(*) > 1
      LIMIT 20`,
  },
  {
    invariant: 'each paid (refunded, disputed) purchase: exactly one purchase entry of its coins; a pending or failed one: none',
    sql: `
      SELECT p.id AS purchase_id, p.status, p.coins, COUNT(l.id) AS entries, SUM(l.delta) AS credited
      FROM purchases p LEFT JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind = 'purchase'
      GROUP BY p.id, p.status, p.coins
      HAVING (p.status IN ('paid', 'refunded', 'disputed') AND (COUNT(l.id) <> 1 OR SUM(l.delta) <> p.coins))
          OR (p.status IN ('pending', 'failed') AND COUNT(l.id) <> 0)
      LIMIT 20`,
  },
  {
    invariant:
      'each purchase: coins taken back (refunds less refund reversals and won disputes) + unrecoveredCoins = what its refunds and dispute claim: ceil(refunded cents / 25), at most its coins; all of them while disputed; none before it is paid',
    sql: `
      SELECT p.id AS purchase_id, p.status, p.coins, p.refunded_cents, p.unrecovered_coins, COALESCE(-SUM(l.delta), 0) AS taken
      FROM purchases p LEFT JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind IN ('refund', 'refund_reversal', 'dispute_won')
      GROUP BY p.id, p.status, p.coins, p.refunded_cents, p.unrecovered_coins
      HAVING COALESCE(-SUM(l.delta), 0) + p.unrecovered_coins <> CASE
               WHEN p.status = 'disputed' THEN p.coins
               WHEN p.status IN ('paid', 'refunded') THEN LEAST(p.coins, CEIL(p.refunded_cents / 25.0))
               ELSE 0 END
          OR (p.status IN ('pending', 'failed') AND COUNT(l.id) <> 0)
      LIMIT 20`,
  },
  {
    invariant: 'each won dispute: gave back exactly the coins it took, once; no other purchase got any back for a dispute',
    sql: `
      SELECT p.id AS purchase_id, p.dispute_outcome, p.dispute_taken_coins, COALESCE(SUM(l.delta), 0) AS given_back
      FROM purchases p LEFT JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind = 'dispute_won'
      GROUP BY p.id, p.dispute_outcome, p.dispute_taken_coins
      HAVING COALESCE(SUM(l.delta), 0) <> CASE WHEN p.dispute_outcome = 'won' THEN p.dispute_taken_coins ELSE 0 END
      LIMIT 20`,
  },
  {
    invariant: 'no payment event whose amount or currency did not match moved money',
    sql: `
      SELECT e.provider, e.event_id, e.kind, e.purchase_id, e.amount_cents, e.currency
      FROM payment_events e JOIN purchases p ON p.id = e.purchase_id
      WHERE e.outcome = 'applied'
        AND ((e.currency IS NOT NULL AND e.currency <> 'usd')
          OR (e.kind = 'payment_succeeded' AND e.amount_cents IS NOT NULL AND e.amount_cents * 10 <> p.price_mills))
      LIMIT 20`,
  },
  {
    invariant: "each void entry: matches exactly one voided insertion, returning its coins to its player's wallet",
    sql: `
      SELECT l.id AS ledger_entry_id, l.delta, v.insertion_id, i.coins, w.player_id AS wallet_player, i.player_id
      FROM ledger_entries l
      JOIN wallets w ON w.id = l.wallet_id
      LEFT JOIN insertion_voids v ON v.ledger_entry_id = l.id
      LEFT JOIN insertions i ON i.id = v.insertion_id
      WHERE l.kind = 'void' AND (v.insertion_id IS NULL OR i.id IS NULL OR l.delta <> i.coins OR w.player_id <> i.player_id)
      UNION ALL
      SELECT v.ledger_entry_id, l.delta, v.insertion_id, NULL, NULL, NULL
      FROM insertion_voids v JOIN ledger_entries l ON l.id = v.ledger_entry_id
      WHERE l.kind <> 'void'
      LIMIT 20`,
  },
  {
    invariant: 'no voided insertion has a live score (one on the boards)',
    sql: `
      SELECT s.id AS score_id, s.insertion_id, v.voided_at
      FROM scores s JOIN insertion_voids v ON v.insertion_id = s.insertion_id
      WHERE s.removed_at IS NULL
      LIMIT 20`,
  },
  {
    invariant: "each void: takes off exactly its insertion's earning (coins, mills, developer, game)",
    sql: `
      SELECT v.insertion_id, v.coins, e.coins AS earning_coins, v.earned_mills, e.earned_mills AS earning_mills
      FROM insertion_voids v LEFT JOIN developer_earnings e ON e.insertion_id = v.insertion_id
      WHERE e.id IS NULL OR v.coins <> e.coins OR v.gross_mills <> e.gross_mills OR v.earned_mills <> e.earned_mills
         OR v.developer_id <> e.developer_id OR v.game_id <> e.game_id
      LIMIT 20`,
  },
  {
    invariant: 'each developer and game: earnings (insertions less voids, as reported) equal the sum over unvoided insertions',
    sql: `
      WITH reported AS (
        SELECT developer_id, game_id, SUM(n) AS insertions, SUM(coins) AS coins, SUM(gross) AS gross, SUM(earned) AS earned FROM (
          SELECT developer_id, game_id, 1 AS n, coins, gross_mills AS gross, earned_mills AS earned FROM developer_earnings
          UNION ALL
          SELECT developer_id, game_id, -1, -coins, -gross_mills, -earned_mills FROM insertion_voids
        ) signed GROUP BY developer_id, game_id
      ), unvoided AS (
        SELECT e.developer_id, e.game_id, COUNT(*) AS insertions, SUM(e.coins) AS coins, SUM(e.gross_mills) AS gross, SUM(e.earned_mills) AS earned
        FROM developer_earnings e WHERE NOT EXISTS (SELECT 1 FROM insertion_voids v WHERE v.insertion_id = e.insertion_id)
        GROUP BY e.developer_id, e.game_id
      )
      SELECT COALESCE(r.developer_id, u.developer_id) AS developer_id, COALESCE(r.game_id, u.game_id) AS game_id,
             r.insertions AS reported_insertions, u.insertions AS unvoided_insertions, r.earned AS reported_mills, u.earned AS unvoided_mills
      FROM reported r FULL JOIN unvoided u ON u.developer_id = r.developer_id AND u.game_id = r.game_id
      WHERE COALESCE(r.insertions, 0) <> COALESCE(u.insertions, 0) OR COALESCE(r.coins, 0) <> COALESCE(u.coins, 0)
         OR COALESCE(r.gross, 0) <> COALESCE(u.gross, 0) OR COALESCE(r.earned, 0) <> COALESCE(u.earned, 0)
      LIMIT 20`,
  },
  {
    invariant:
      'money is conserved: coins in (credits, purchases, refund reversals, won disputes, voids) = coins in wallets + coins out (debits, refunds); debits = coins spent on insertions; voids = coins of voided insertions; spent value = developer earnings + platform share',
    sql: `
      WITH sums AS (
             SELECT COALESCE(SUM(delta) FILTER (WHERE kind IN ('credit', 'purchase', 'refund_reversal', 'dispute_won', 'void')), 0) AS coins_in,
                    COALESCE(-SUM(delta) FILTER (WHERE kind IN ('debit', 'refund', 'forfeit')), 0) AS coins_out,
                    COALESCE(-SUM(delta) FILTER (WHERE kind = 'debit'), 0) AS debited,
                    COALESCE(SUM(delta) FILTER (WHERE kind = 'void'), 0) AS returned
             FROM ledger_entries
           ),
           held AS (
             SELECT COALESCE(SUM(latest.balance_after), 0) AS coins FROM wallets w
             JOIN LATERAL (SELECT balance_after FROM ledger_entries x WHERE x.wallet_id = w.id ORDER BY seq DESC LIMIT 1) latest ON true
           ),
           spent AS (SELECT COALESCE(SUM(coins), 0) AS coins FROM insertions),
           voided AS (SELECT COALESCE(SUM(coins), 0) AS coins FROM insertion_voids),
           earned AS (SELECT COALESCE(SUM(gross_mills), 0) AS gross, COALESCE(SUM(earned_mills), 0) AS developer FROM developer_earnings)
      SELECT sums.coins_in, held.coins AS held, sums.coins_out, sums.debited, spent.coins AS spent, sums.returned, voided.coins AS voided,
             earned.gross AS gross_mills, earned.developer AS developer_mills, spent.coins * 75 AS platform_mills
      FROM sums, held, spent, voided, earned
      WHERE sums.coins_in <> held.coins + sums.coins_out
         OR sums.debited <> spent.coins
         OR sums.returned <> voided.coins
         OR spent.coins * 250 <> earned.developer + spent.coins * 75
         OR earned.gross <> spent.coins * 250`,
  },
  {
    invariant: "each developer ledger shard: running balances chain from 0 by their amounts, with no gap in seq",
    sql: `
      SELECT developer_id, shard, seq, amount_mills, balance_after_mills, expected
      FROM (
        SELECT developer_id, shard, seq, amount_mills, balance_after_mills,
               SUM(amount_mills) OVER (PARTITION BY developer_id, shard ORDER BY seq) AS expected,
               ROW_NUMBER() OVER (PARTITION BY developer_id, shard ORDER BY seq) AS position
        FROM developer_ledger_entries
      ) chain
      WHERE balance_after_mills <> expected OR seq <> position
      LIMIT 20`,
  },
  {
    invariant: `each developer has its ${DEVELOPER_LEDGER_SHARDS} shard heads, each its shard's newest entry's (balance, last_seq; 0 with no entries), so its balance (their sum) is its ledger's sum`,
    sql: `
      SELECT COALESCE(b.developer_id, l.developer_id, d.developer_id) AS developer_id, COALESCE(b.shard, l.shard, d.shard) AS shard,
             b.balance_mills, l.sum_mills, b.last_seq, l.newest_seq
      FROM developer_balances b
      FULL JOIN (SELECT developer_id, shard, SUM(amount_mills) AS sum_mills, MAX(seq) AS newest_seq FROM developer_ledger_entries GROUP BY developer_id, shard) l
        ON l.developer_id = b.developer_id AND l.shard = b.shard
      FULL JOIN (SELECT id AS developer_id, s AS shard FROM developers, generate_series(0, ${DEVELOPER_LEDGER_SHARDS - 1}) s) d
        ON d.developer_id = COALESCE(b.developer_id, l.developer_id) AND d.shard = COALESCE(b.shard, l.shard)
      WHERE b.developer_id IS NULL OR d.developer_id IS NULL
         OR b.balance_mills <> COALESCE(l.sum_mills, 0) OR b.last_seq <> COALESCE(l.newest_seq, 0)
      LIMIT 20`,
  },
  {
    invariant:
      "the developer ledger holds each developer earning as one earning entry and each void as one void entry: same insertion, developer, mills (the void's negative) and time; nothing else about insertions",
    sql: `
      SELECT 'earning' AS kind, COALESCE(e.insertion_id, l.insertion_id) AS insertion_id, e.developer_id, l.developer_id AS entry_developer,
             e.earned_mills, l.amount_mills, e.created_at, l.created_at AS entry_created_at
      FROM developer_earnings e
      FULL JOIN (SELECT * FROM developer_ledger_entries WHERE kind = 'earning') l ON l.insertion_id = e.insertion_id
      WHERE e.insertion_id IS NULL OR l.id IS NULL OR l.developer_id <> e.developer_id OR l.amount_mills <> e.earned_mills OR l.created_at <> e.created_at
      UNION ALL
      SELECT 'void', COALESCE(v.insertion_id, l.insertion_id), v.developer_id, l.developer_id, -v.earned_mills, l.amount_mills, v.voided_at, l.created_at
      FROM insertion_voids v
      FULL JOIN (SELECT * FROM developer_ledger_entries WHERE kind = 'void') l ON l.insertion_id = v.insertion_id
      WHERE v.insertion_id IS NULL OR l.id IS NULL OR l.developer_id <> v.developer_id OR l.amount_mills <> -v.earned_mills OR l.created_at <> v.voided_at
      LIMIT 20`,
  },
  {
    invariant: "each developer ledger entry is in its shard: an earning's or a void's is its insertion's wallet's, a payout's or a payout reversal's the developer-level one",
    sql: `
      SELECT l.id, l.developer_id, l.kind, l.insertion_id, l.payout_id, l.shard,
             CASE WHEN l.insertion_id IS NULL THEN ${DEVELOPER_LEVEL_SHARD} ELSE ${developerShardSql('w.wallet_id')} END AS expected_shard
      FROM developer_ledger_entries l
      LEFT JOIN insertions i ON i.id = l.insertion_id
      LEFT JOIN ledger_entries w ON w.id = i.ledger_entry_id
      WHERE l.shard IS DISTINCT FROM CASE WHEN l.insertion_id IS NULL THEN ${DEVELOPER_LEVEL_SHARD} ELSE ${developerShardSql('w.wallet_id')} END
      LIMIT 20`,
  },
  {
    invariant: "every ledger's hash chain is whole (each wallet's and each developer's): the first break of each broken one",
    sql: CHAIN_BREAKS_SQL,
  },
];

export async function checkInvariants(db: Pool | PoolClient): Promise<InvariantReport> {
  const violations: InvariantViolation[] = [];
  for (const check of CHECKS) {
    const { rows } = await db.query(check.sql);
    if (rows.length > 0) violations.push({ invariant: check.invariant, rows });
  }
  const { rows } = await db.query(`
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
  return { ok: violations.length === 0, violations, totals: rows[0] };
}
