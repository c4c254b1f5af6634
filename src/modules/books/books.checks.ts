import { CHAIN_BREAKS_SQL, DEVELOPER_LEDGER_SHARDS, DEVELOPER_LEVEL_SHARD, developerShardSql } from '../wallet';

/**
 * The books' checks (CONTRACT §22): the identities the books keep over all time, by the eight
 * names the reconciliation answers with. The one implementation: `GET /api/admin/reconciliation`
 * and `npm run check:invariants` (src/ops) both run `runBooksChecks`. Each check is a list of
 * rules, each a query returning the offending rows (at most 20 a rule): a check holds when none
 * of its rules returns a row. Money is compared in exact integers: coins, and mills (1/1000 USD).
 *
 * Ledger kinds: credit (admin), debit (insertion), purchase, refund (coins taken back for a refund,
 * whole or partial, or a dispute), refund_reversal (a failed refund's coins back), dispute_won (a won
 * dispute's coins back), void (an insertion's coins returned), forfeit (an erased account's remaining coins).
 * Developer ledger kinds (mills): earning (+), void (−), payout (−), payout_reversal (+).
 */
export const BOOKS_CHECK_NAMES = [
  'wallet_ledgers',
  'developer_ledgers',
  'hash_chains',
  'coins_conserved',
  'earnings_exact',
  'payouts_within_earnings',
  'purchase_events',
  'voided_scores',
] as const;
export type BooksCheckName = (typeof BOOKS_CHECK_NAMES)[number];

/** One rule that does not hold, and (up to 20 of) the rows that break it. */
export interface BooksProblem {
  rule: string;
  rows: Record<string, unknown>[];
}

/** What a check found: `problems` empty when it holds; some checks say more (the totals, the events). */
export interface BooksCheckDetails {
  problems: BooksProblem[];
  /** coins_conserved: each term of the identity, over all time. */
  totals?: Record<string, string>;
  /** purchase_events: every event whose amount, currency, mode or body did not match (none of them may have moved money). */
  mismatchedEvents?: Record<string, unknown>[];
}

export interface BooksCheck {
  name: BooksCheckName;
  ok: boolean;
  details: BooksCheckDetails;
}

/** What the checks read with: a `pg` client, or anything answering `{ rows }` (one snapshot: see `runBooksChecks`). */
export interface BooksReader {
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
}

interface Rule {
  check: BooksCheckName;
  rule: string;
  sql: string;
}

/** The §22 identity's terms over all time, from the wallet ledger, and the wallets' heads. */
const COIN_TOTALS_SQL = `
  SELECT COALESCE(SUM(delta) FILTER (WHERE kind = 'purchase'), 0)::text AS purchased,
         COALESCE(SUM(delta) FILTER (WHERE kind = 'credit'), 0)::text AS credited,
         COALESCE(SUM(delta) FILTER (WHERE kind = 'void'), 0)::text AS "voidedBack",
         COALESCE(SUM(delta) FILTER (WHERE kind = 'dispute_won'), 0)::text AS "disputeWonBack",
         COALESCE(SUM(delta) FILTER (WHERE kind = 'refund_reversal'), 0)::text AS "refundReversals",
         COALESCE(-SUM(delta) FILTER (WHERE kind = 'refund'), 0)::text AS "refundedBack",
         COALESCE(-SUM(delta) FILTER (WHERE kind = 'debit'), 0)::text AS spent,
         COALESCE(-SUM(delta) FILTER (WHERE kind = 'forfeit'), 0)::text AS forfeited,
         COALESCE(SUM(delta), 0)::text AS "ledgerSum",
         (SELECT COALESCE(SUM(balance), 0) FROM wallets)::text AS "walletBalances"
    FROM ledger_entries`;

const RULES: Rule[] = [
  // wallet_ledgers: every wallet's balance is its ledger's sum.
  {
    check: 'wallet_ledgers',
    rule: "each wallet: its balance (the head) is its ledger's sum, and its last_seq its newest entry's",
    sql: `
      SELECT w.id AS wallet_id, w.balance, COALESCE(l.sum, 0) AS ledger_sum, w.last_seq, COALESCE(l.newest_seq, 0) AS newest_seq
        FROM wallets w
        LEFT JOIN (SELECT wallet_id, SUM(delta) AS sum, MAX(seq) AS newest_seq FROM ledger_entries GROUP BY wallet_id) l ON l.wallet_id = w.id
       WHERE w.balance <> COALESCE(l.sum, 0) OR w.last_seq <> COALESCE(l.newest_seq, 0)
      UNION ALL
      SELECT l.wallet_id, NULL, l.sum, NULL, l.newest_seq
        FROM (SELECT wallet_id, SUM(delta) AS sum, MAX(seq) AS newest_seq FROM ledger_entries GROUP BY wallet_id) l
       WHERE NOT EXISTS (SELECT 1 FROM wallets w WHERE w.id = l.wallet_id)
      LIMIT 20`,
  },
  {
    check: 'wallet_ledgers',
    rule: 'each wallet: running balances chain from 0 by their deltas, with no gap in seq',
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
    check: 'wallet_ledgers',
    rule: 'no running balance is negative',
    sql: `SELECT id AS ledger_entry_id, wallet_id, balance_after FROM ledger_entries WHERE balance_after < 0 LIMIT 20`,
  },

  // developer_ledgers: the same for developers (a developer's balance is the sum of its shards' heads).
  {
    check: 'developer_ledgers',
    rule: `each developer has its ${DEVELOPER_LEDGER_SHARDS} shard heads, each its shard's ledger sum and newest seq (0 with no entries), so its balance (their sum) is its ledger's sum`,
    sql: `
      SELECT COALESCE(b.developer_id, l.developer_id, d.developer_id) AS developer_id, COALESCE(b.shard, l.shard, d.shard) AS shard,
             b.balance_mills, l.sum_mills AS ledger_sum_mills, b.last_seq, l.newest_seq
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
    check: 'developer_ledgers',
    rule: 'each developer ledger shard: running balances chain from 0 by their amounts, with no gap in seq',
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
    check: 'developer_ledgers',
    rule: 'the developer ledger holds each developer earning as one earning entry and each void as one void entry: same insertion, developer, mills (the void\'s negative) and time; nothing else about insertions',
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
    check: 'developer_ledgers',
    rule: "each developer ledger entry is in its shard: an earning's or a void's is its insertion's wallet's, a payout's or a payout reversal's the developer-level one",
    sql: `
      SELECT l.id AS entry_id, l.developer_id, l.kind, l.insertion_id, l.payout_id, l.shard,
             CASE WHEN l.insertion_id IS NULL THEN ${DEVELOPER_LEVEL_SHARD} ELSE ${developerShardSql('w.wallet_id')} END AS expected_shard
      FROM developer_ledger_entries l
      LEFT JOIN insertions i ON i.id = l.insertion_id
      LEFT JOIN ledger_entries w ON w.id = i.ledger_entry_id
      WHERE l.shard IS DISTINCT FROM CASE WHEN l.insertion_id IS NULL THEN ${DEVELOPER_LEVEL_SHARD} ELSE ${developerShardSql('w.wallet_id')} END
      LIMIT 20`,
  },

  // hash_chains: every ledger's chain is whole (the one chain check of the wallet module).
  {
    check: 'hash_chains',
    rule: "every ledger's hash chain is whole (each wallet's and each developer shard's): the first break of each broken one",
    sql: CHAIN_BREAKS_SQL,
  },

  // coins_conserved: the §22 identity, and what makes each of its terms what it says.
  {
    check: 'coins_conserved',
    rule: 'coins purchased + credited + voided back + dispute-won back + refund reversals − refunded back − spent − forfeited = the sum of wallet balances',
    sql: `
      SELECT t.* FROM (${COIN_TOTALS_SQL}) t
       WHERE t.purchased::numeric + t.credited::numeric + t."voidedBack"::numeric + t."disputeWonBack"::numeric + t."refundReversals"::numeric
             - t."refundedBack"::numeric - t.spent::numeric - t.forfeited::numeric <> t."walletBalances"::numeric`,
  },
  {
    check: 'coins_conserved',
    rule: 'coins spent (debits) = the coins of the insertions; coins voided back = the coins of the voided insertions',
    sql: `
      SELECT (SELECT COALESCE(-SUM(delta), 0) FROM ledger_entries WHERE kind = 'debit') AS debited,
             (SELECT COALESCE(SUM(coins), 0) FROM insertions) AS insertion_coins,
             (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE kind = 'void') AS voided_back,
             (SELECT COALESCE(SUM(coins), 0) FROM insertion_voids) AS voided_insertion_coins
       WHERE (SELECT COALESCE(-SUM(delta), 0) FROM ledger_entries WHERE kind = 'debit') <> (SELECT COALESCE(SUM(coins), 0) FROM insertions)
          OR (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE kind = 'void') <> (SELECT COALESCE(SUM(coins), 0) FROM insertion_voids)`,
  },
  {
    check: 'coins_conserved',
    rule: "each insertion: exactly one debit of its coins from its player's wallet",
    sql: `
      SELECT i.id AS insertion_id, i.coins, l.delta, l.kind, w.player_id AS wallet_player, i.player_id
      FROM insertions i
      LEFT JOIN ledger_entries l ON l.id = i.ledger_entry_id
      LEFT JOIN wallets w ON w.id = l.wallet_id
      WHERE l.id IS NULL OR l.kind <> 'debit' OR l.delta <> -i.coins OR w.player_id <> i.player_id
      LIMIT 20`,
  },
  {
    check: 'coins_conserved',
    rule: 'each debit belongs to exactly one insertion',
    sql: `
      SELECT l.id AS ledger_entry_id, l.delta, COUNT(i.id) AS insertions
      FROM ledger_entries l LEFT JOIN insertions i ON i.ledger_entry_id = l.id
      WHERE l.kind = 'debit'
      GROUP BY l.id, l.delta
      HAVING COUNT(i.id) <> 1
      LIMIT 20`,
  },
  {
    check: 'coins_conserved',
    rule: "each void entry: matches exactly one voided insertion, returning its coins to its player's wallet",
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
    check: 'coins_conserved',
    rule: 'each purchase, refund, refund_reversal or dispute_won entry: names a purchase of its own wallet',
    sql: `
      SELECT l.id AS ledger_entry_id, l.kind, l.purchase_id, l.wallet_id, p.wallet_id AS purchase_wallet
      FROM ledger_entries l LEFT JOIN purchases p ON p.id = l.purchase_id
      WHERE l.kind IN ('purchase', 'refund', 'refund_reversal', 'dispute_won') AND (p.id IS NULL OR p.wallet_id <> l.wallet_id)
      LIMIT 20`,
  },
  {
    check: 'coins_conserved',
    rule: 'each paid (refunded, disputed) purchase: exactly one purchase entry of its coins; a pending or failed one: none; no dispute won twice',
    sql: `
      SELECT p.id AS purchase_id, p.status, p.coins, COUNT(l.id) AS entries, SUM(l.delta) AS credited
      FROM purchases p LEFT JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind = 'purchase'
      GROUP BY p.id, p.status, p.coins
      HAVING (p.status IN ('paid', 'refunded', 'disputed') AND (COUNT(l.id) <> 1 OR SUM(l.delta) <> p.coins))
          OR (p.status IN ('pending', 'failed') AND COUNT(l.id) <> 0)
      UNION ALL
      SELECT purchase_id, 'dispute_won twice', NULL, COUNT(*), SUM(delta) FROM ledger_entries
      WHERE kind = 'dispute_won' GROUP BY purchase_id HAVING COUNT(*) > 1
      LIMIT 20`,
  },
  {
    check: 'coins_conserved',
    rule: 'each purchase: coins taken back (refunds less refund reversals and won disputes) + unrecoveredCoins = what its refunds and dispute claim: ceil(refunded cents / 25), at most its coins; all of them while disputed; none before it is paid',
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
    check: 'coins_conserved',
    rule: 'each won dispute: gave back exactly the coins it took, once; no other purchase got any back for a dispute',
    sql: `
      SELECT p.id AS purchase_id, p.dispute_outcome, p.dispute_taken_coins, COALESCE(SUM(l.delta), 0) AS given_back
      FROM purchases p LEFT JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind = 'dispute_won'
      GROUP BY p.id, p.dispute_outcome, p.dispute_taken_coins
      HAVING COALESCE(SUM(l.delta), 0) <> CASE WHEN p.dispute_outcome = 'won' THEN p.dispute_taken_coins ELSE 0 END
      LIMIT 20`,
  },

  // earnings_exact: every paid insertion not voided earned exactly 70% of its value.
  {
    check: 'earnings_exact',
    rule: "each insertion: exactly one developer earning of 70% of its value (gross 250 mills a coin, earned 175), to the game's developer",
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
      UNION ALL
      SELECT e.insertion_id, e.coins, 0, e.gross_mills, e.earned_mills
      FROM developer_earnings e WHERE NOT EXISTS (SELECT 1 FROM insertions i WHERE i.id = e.insertion_id)
      LIMIT 20`,
  },
  {
    check: 'earnings_exact',
    rule: 'each insertion: in a paid (non-test) play session of the same game and player, at its price',
    sql: `
      SELECT i.id AS insertion_id, s.id AS play_session_id, s.test_mode, i.coins, s.coins_per_credit
      FROM insertions i JOIN play_sessions s ON s.id = i.play_session_id
      WHERE s.test_mode OR s.game_id <> i.game_id OR s.player_id <> i.player_id OR i.coins <> s.coins_per_credit
      LIMIT 20`,
  },
  {
    check: 'earnings_exact',
    rule: "each void: takes off exactly its insertion's earning (coins, mills, developer, game)",
    sql: `
      SELECT v.insertion_id, v.coins, e.coins AS earning_coins, v.earned_mills, e.earned_mills AS earning_mills
      FROM insertion_voids v LEFT JOIN developer_earnings e ON e.insertion_id = v.insertion_id
      WHERE e.id IS NULL OR v.coins <> e.coins OR v.gross_mills <> e.gross_mills OR v.earned_mills <> e.earned_mills
         OR v.developer_id <> e.developer_id OR v.game_id <> e.game_id
      LIMIT 20`,
  },
  {
    check: 'earnings_exact',
    rule: 'each developer and game: earnings (insertions less voids, as reported) equal the sum over unvoided insertions',
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
    check: 'earnings_exact',
    rule: 'the value spent (250 mills a coin of every insertion) = the developers\' gross = their earnings (70%) + the platform\'s share (30%)',
    sql: `
      WITH spent AS (SELECT COALESCE(SUM(coins), 0) AS coins FROM insertions),
           earned AS (SELECT COALESCE(SUM(gross_mills), 0) AS gross, COALESCE(SUM(earned_mills), 0) AS developer FROM developer_earnings)
      SELECT spent.coins AS spent_coins, earned.gross AS gross_mills, earned.developer AS developer_mills, spent.coins * 75 AS platform_mills
        FROM spent, earned
       WHERE earned.gross <> spent.coins * 250 OR spent.coins * 250 <> earned.developer + spent.coins * 75`,
  },

  // purchase_events: no event whose amount, currency or body did not match moved money.
  {
    check: 'purchase_events',
    rule: 'no payment event whose amount or currency did not match its purchase was applied',
    sql: `
      SELECT e.provider, e.event_id, e.kind, e.purchase_id, e.amount_cents, e.currency, e.outcome
      FROM payment_events e JOIN purchases p ON p.id = e.purchase_id
      WHERE e.outcome = 'applied'
        AND ((e.currency IS NOT NULL AND e.currency <> 'usd')
          OR (e.kind = 'payment_succeeded' AND e.amount_cents IS NOT NULL AND e.amount_cents * 10 <> p.price_mills))
      LIMIT 20`,
  },
  {
    check: 'purchase_events',
    rule: "each purchase credit: its purchase has an applied payment_succeeded event of the purchase's price (coins come only from a matching event)",
    sql: `
      SELECT l.id AS ledger_entry_id, l.purchase_id, l.delta, p.price_mills
        FROM ledger_entries l LEFT JOIN purchases p ON p.id = l.purchase_id
       WHERE l.kind = 'purchase'
         AND NOT EXISTS (SELECT 1 FROM payment_events e
                          WHERE e.purchase_id = l.purchase_id AND e.kind = 'payment_succeeded' AND e.outcome = 'applied'
                            AND (e.amount_cents IS NULL OR e.amount_cents * 10 = p.price_mills)
                            AND (e.currency IS NULL OR e.currency = 'usd'))
      LIMIT 20`,
  },

  // voided_scores: no voided insertion's score on a board (and what the boards and XP show came from paid play).
  {
    check: 'voided_scores',
    rule: 'no voided insertion has a live score (one on the boards)',
    sql: `
      SELECT s.id AS score_id, s.insertion_id, v.voided_at
      FROM scores s JOIN insertion_voids v ON v.insertion_id = s.insertion_id
      WHERE s.removed_at IS NULL
      LIMIT 20`,
  },
  {
    check: 'voided_scores',
    rule: 'each score: bound to a paid insertion of the same play session, game and player; at most one score per insertion',
    sql: `
      SELECT sc.id AS score_id, sc.insertion_id, i.play_session_id, sc.play_session_id AS score_session, NULL::bigint AS scores
      FROM scores sc LEFT JOIN insertions i ON i.id = sc.insertion_id
      WHERE i.id IS NULL OR i.play_session_id <> sc.play_session_id OR i.game_id <> sc.game_id OR i.player_id <> sc.player_id
      UNION ALL
      SELECT NULL, insertion_id, NULL, NULL, COUNT(*) FROM scores GROUP BY insertion_id HAVING COUNT(*) > 1
      LIMIT 20`,
  },
  {
    check: 'voided_scores',
    rule: 'test-mode play sessions leave no unlocks, and each player has 25 XP per unlocked achievement',
    sql: `
      SELECT u.player_id, u.achievement_id, NULL::bigint AS xp, NULL::bigint AS unlocks FROM achievement_unlocks u
        JOIN play_sessions s ON s.id = u.play_session_id WHERE s.test_mode
      UNION ALL
      SELECT p.id, NULL, p.xp, COUNT(u.achievement_id)
        FROM players p LEFT JOIN achievement_unlocks u ON u.player_id = p.id
       GROUP BY p.id, p.xp
      HAVING p.xp <> 25 * COUNT(u.achievement_id)
      LIMIT 20`,
  },
];

/** payouts_within_earnings: the payouts (the payouts module's table) and their developer ledger entries. */
const PAYOUT_RULES: Rule[] = [
  {
    check: 'payouts_within_earnings',
    rule: 'each payout: its amount is above 0 and at most its balance before less the held earnings then (held ≥ 0), so it left the balance at or above the held amount, and at or above zero',
    sql: `
      SELECT id AS payout_id, developer_id, amount_mills, balance_before_mills, held_mills, balance_before_mills - amount_mills AS balance_after_mills
        FROM payouts
       WHERE amount_mills <= 0 OR held_mills < 0 OR amount_mills > balance_before_mills - held_mills OR balance_before_mills - amount_mills < 0
      LIMIT 20`,
  },
  {
    check: 'payouts_within_earnings',
    rule: "each payout has exactly one ledger entry of kind payout (−its amount, its developer); a failed one exactly one payout_reversal (+its amount), any other none",
    sql: `
      SELECT p.id AS payout_id, p.developer_id, p.status, p.amount_mills,
             COUNT(l.id) FILTER (WHERE l.kind = 'payout') AS payout_entries, SUM(l.amount_mills) FILTER (WHERE l.kind = 'payout') AS paid_mills,
             COUNT(l.id) FILTER (WHERE l.kind = 'payout_reversal') AS reversal_entries, SUM(l.amount_mills) FILTER (WHERE l.kind = 'payout_reversal') AS reversed_mills
        FROM payouts p LEFT JOIN developer_ledger_entries l ON l.payout_id = p.id
       GROUP BY p.id, p.developer_id, p.status, p.amount_mills
      HAVING COUNT(l.id) FILTER (WHERE l.kind = 'payout') <> 1
          OR SUM(l.amount_mills) FILTER (WHERE l.kind = 'payout') <> -p.amount_mills
          OR bool_or(l.developer_id <> p.developer_id)
          OR bool_or(l.kind NOT IN ('payout', 'payout_reversal'))
          OR (p.status = 'failed' AND (COUNT(l.id) FILTER (WHERE l.kind = 'payout_reversal') <> 1 OR SUM(l.amount_mills) FILTER (WHERE l.kind = 'payout_reversal') <> p.amount_mills))
          OR (p.status <> 'failed' AND COUNT(l.id) FILTER (WHERE l.kind = 'payout_reversal') <> 0)
      LIMIT 20`,
  },
  {
    check: 'payouts_within_earnings',
    rule: 'each payout or payout_reversal ledger entry names a payout',
    sql: `
      SELECT l.id AS entry_id, l.developer_id, l.kind, l.amount_mills, l.payout_id
        FROM developer_ledger_entries l
       WHERE l.kind IN ('payout', 'payout_reversal') AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.id = l.payout_id)
      LIMIT 20`,
  },
  {
    check: 'payouts_within_earnings',
    rule: "each payout's balance before is no more than the developer ever earned less what was paid out (net of reversals) before it, in the order of its developer-level shard",
    sql: `
      WITH moves AS (
        SELECT l.developer_id, l.payout_id, l.kind, l.seq,
               COALESCE(-SUM(l.amount_mills) OVER (PARTITION BY l.developer_id ORDER BY l.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS paid_before_mills
          FROM developer_ledger_entries l
         WHERE l.shard = ${DEVELOPER_LEVEL_SHARD} AND l.kind IN ('payout', 'payout_reversal')
      ), earned AS (
        SELECT developer_id, SUM(amount_mills) AS earned_mills FROM developer_ledger_entries WHERE kind = 'earning' GROUP BY developer_id
      )
      SELECT p.id AS payout_id, p.developer_id, p.amount_mills, p.balance_before_mills, m.paid_before_mills, COALESCE(e.earned_mills, 0) AS earned_ever_mills
        FROM payouts p
        JOIN moves m ON m.payout_id = p.id AND m.kind = 'payout'
        LEFT JOIN earned e ON e.developer_id = p.developer_id
       WHERE p.balance_before_mills > COALESCE(e.earned_mills, 0) - m.paid_before_mills
      LIMIT 20`,
  },
];

/** Every event whose amount, currency, mode or body did not match: listed even when the check holds. */
const MISMATCHED_EVENTS_SQL = `
  SELECT provider, event_id AS "eventId", kind, outcome AS problem, purchase_id AS "purchaseId", amount_cents::text AS "amountCents", currency, received_at AS "receivedAt"
    FROM payment_events WHERE outcome IN ('amount_mismatch', 'currency_mismatch', 'livemode_mismatch')
  UNION ALL
  SELECT c.provider, c.event_id, e.kind, 'body_mismatch', e.purchase_id, NULL, NULL, c.received_at
    FROM payment_event_conflicts c JOIN payment_events e ON e.provider = c.provider AND e.event_id = c.event_id
  ORDER BY "receivedAt", provider, "eventId"`;

/**
 * Runs every check and answers them in the order of BOOKS_CHECK_NAMES. Run it inside one
 * REPEATABLE READ transaction (`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`), so that every
 * rule reads the same snapshot: a coin moving between two rules is not a broken identity (and the
 * `SET LOCAL` below stays in that transaction).
 */
export async function runBooksChecks(db: BooksReader): Promise<BooksCheck[]> {
  // The planner's estimates for these whole-table queries (every developer × 256 shards) pass JIT's
  // threshold on any database, and compiling costs seconds where running costs milliseconds.
  await db.query('SET LOCAL jit = off');
  const rules = [...RULES, ...PAYOUT_RULES];
  const problems = new Map<BooksCheckName, BooksProblem[]>(BOOKS_CHECK_NAMES.map((name) => [name, []]));
  for (const rule of rules) {
    const { rows } = await db.query(rule.sql);
    if (rows.length > 0) problems.get(rule.check)!.push({ rule: rule.rule, rows });
  }
  const totals = (await db.query(COIN_TOTALS_SQL)).rows[0] as Record<string, string>;
  const mismatchedEvents = (await db.query(MISMATCHED_EVENTS_SQL)).rows;
  return BOOKS_CHECK_NAMES.map((name) => {
    const found = problems.get(name)!;
    const details: BooksCheckDetails = { problems: found };
    if (name === 'coins_conserved') details.totals = totals;
    if (name === 'purchase_events') details.mismatchedEvents = mismatchedEvents;
    return { name, ok: found.length === 0, details };
  });
}

/** The failed checks' names, in order (what `npm run check:invariants` prints). */
export function failedCheckNames(checks: readonly BooksCheck[]): BooksCheckName[] {
  return checks.filter((check) => !check.ok).map((check) => check.name);
}
