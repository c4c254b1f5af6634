import type { Pool, PoolClient } from 'pg';

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
  totals: { wallets: number; ledgerEntries: number; insertions: number; scores: number; unlocks: number; creditedCoins: string; spentCoins: string };
}

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
    invariant: 'money is conserved: coins credited = coins in wallets + coins spent, and spent value = developer earnings + platform share',
    sql: `
      WITH credited AS (SELECT COALESCE(SUM(delta), 0) AS coins FROM ledger_entries WHERE kind = 'credit'),
           debited AS (SELECT COALESCE(-SUM(delta), 0) AS coins FROM ledger_entries WHERE kind = 'debit'),
           held AS (
             SELECT COALESCE(SUM(latest.balance_after), 0) AS coins FROM wallets w
             JOIN LATERAL (SELECT balance_after FROM ledger_entries x WHERE x.wallet_id = w.id ORDER BY seq DESC LIMIT 1) latest ON true
           ),
           spent AS (SELECT COALESCE(SUM(coins), 0) AS coins FROM insertions),
           earned AS (SELECT COALESCE(SUM(gross_mills), 0) AS gross, COALESCE(SUM(earned_mills), 0) AS developer FROM developer_earnings)
      SELECT credited.coins AS credited, held.coins AS held, debited.coins AS debited, spent.coins AS spent,
             earned.gross AS gross_mills, earned.developer AS developer_mills, spent.coins * 75 AS platform_mills
      FROM credited, debited, held, spent, earned
      WHERE credited.coins <> held.coins + debited.coins
         OR debited.coins <> spent.coins
         OR spent.coins * 250 <> earned.developer + spent.coins * 75
         OR earned.gross <> spent.coins * 250`,
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
           (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries WHERE kind = 'credit')::text AS "creditedCoins",
           (SELECT COALESCE(-SUM(delta), 0) FROM ledger_entries WHERE kind = 'debit')::text AS "spentCoins"`);
  return { ok: violations.length === 0, violations, totals: rows[0] };
}
