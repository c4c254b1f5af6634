import type { Pool } from 'pg';
import { chainHashSql, developerShardSql } from '../src/modules/wallet/ledger-append';

export interface BulkHistory {
  /** Ledger entries of the wallet afterwards. */
  ledgerEntries: number;
  /** Scores on the game afterwards (all with initials except every tenth). */
  scores: number;
  /** Scores achieved in the current ISO week (the lowest of all). */
  scoresThisWeek: number;
  seconds: number;
}

/**
 * Writes a long history for one player on one game with SQL, row for row as the service writes
 * it: each paid insertion is a 1-coin debit continuing the wallet's ledger chain, an insertion in
 * a (finished) paid play session of that player, a 70% developer earning with its developer ledger
 * entry, and a score. Both ledgers' hash chains are continued from their heads (the append's encoding,
 * chainHashSql) and the heads moved, so check:invariants holds afterwards. Play sessions
 * copy player_ref and game_version_id from a session the service opened for the same player and game.
 *
 * Scores fall with time, so every older week beats every score of this week: the weekly board
 * must not be found by filtering the all-time order.
 */
export async function writeHistory(
  db: Pool,
  args: { playerId: string; gameId: string; templateSessionId: string; targetLedgerEntries: number },
): Promise<BulkHistory> {
  const started = Date.now();
  const client = await db.connect();
  try {
    await client.query('SET statement_timeout = 0');
    // Foreign-key checks are row-by-row triggers (millions here); the rows are consistent by
    // construction and checkInvariants() verifies them afterwards. Needs a superuser; else they run.
    await client.query('SET session_replication_role = replica').catch(() => undefined);
    await client.query('BEGIN');
    const { rows: w } = await client.query<{ wallet_id: string; seq: number; balance: string; last_hash: Buffer }>(
      `SELECT w.id AS wallet_id, l.seq, l.balance_after::text AS balance, w.last_hash
         FROM wallets w JOIN LATERAL (SELECT seq, balance_after FROM ledger_entries WHERE wallet_id = w.id ORDER BY seq DESC LIMIT 1) l ON true
        WHERE w.player_id = $1 FOR UPDATE OF w`,
      [args.playerId],
    );
    const { wallet_id: walletId, seq: lastSeq, last_hash: walletHash } = w[0];
    // The developer ledger's shard the wallet's earnings go to, and its head.
    const { rows: d } = await client.query<{ developer_id: string; shard: number; balance: string; seq: number; last_hash: Buffer }>(
      `SELECT g.developer_id, b.shard, b.balance_mills::text AS balance, b.last_seq AS seq, b.last_hash
         FROM games g JOIN developer_balances b ON b.developer_id = g.developer_id AND b.shard = ${developerShardSql('$2::uuid')}
        WHERE g.id = $1 FOR UPDATE OF b`,
      [args.gameId, walletId],
    );
    const developer = d[0];
    const count = args.targetLedgerEntries - lastSeq;
    if (count <= 0) throw new Error('the wallet already holds the target number of entries');
    if (BigInt(w[0].balance) < BigInt(count)) throw new Error(`the wallet holds ${w[0].balance} coins; ${count} debits need more`);
    const balance = Number(w[0].balance);

    // 98% spread over the past 700 days, the last 2% (the lowest scores) in the current ISO week.
    await client.query(
      `CREATE TEMP TABLE bench_plan ON COMMIT DROP AS
       SELECT n, gen_random_uuid() AS insertion_id, (n - 1) / 50 AS session_no,
              CASE WHEN n > $1::int * 0.98
                   THEN week + (now() - week) * ((n - $1::int * 0.98) / ($1::int * 0.02 + 1))::float8
                   ELSE now() - interval '700 days' + interval '690 days' * (n / ($1::int * 0.98))::float8 END AS ts
         FROM generate_series(1, $1::int) n,
              (SELECT date_trunc('week', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS week) w`,
      [count],
    );
    await client.query(
      `CREATE TEMP TABLE bench_sessions ON COMMIT DROP AS
       SELECT session_no, gen_random_uuid() AS id, min(ts) AS started_at, max(ts) AS ended_at FROM bench_plan GROUP BY session_no`,
    );
    // Temp tables have no statistics until analysed: without them the joins below go quadratic.
    await client.query('CREATE UNIQUE INDEX ON bench_plan (n)');
    await client.query('ANALYZE bench_plan');
    await client.query('ANALYZE bench_sessions');
    await client.query(
      `INSERT INTO play_sessions (id, game_id, game_version_id, player_id, player_ref, test_mode, coins_per_credit, started_at, last_seen_at, ended_at)
       SELECT s.id, t.game_id, t.game_version_id, t.player_id, t.player_ref, false, 1, s.started_at, s.ended_at, s.ended_at
         FROM bench_sessions s, play_sessions t WHERE t.id = $1`,
      [args.templateSessionId],
    );
    const debit = (p: string) => ({
      wallet_id: '$1::uuid', seq: `$2::integer + ${p}.n`, kind: "'debit'", delta: '-1', balance_after: `$3::bigint - ${p}.n`,
      reason: 'NULL', purchase_id: 'NULL', created_at: `${p}.ts`,
    });
    await client.query(
      `WITH RECURSIVE chain AS (
         SELECT p.n, ${chainHashSql('wallet', '$4::bytea', debit('p'))} AS hash FROM bench_plan p WHERE p.n = 1
         UNION ALL
         SELECT p.n, ${chainHashSql('wallet', 'c.hash', debit('p'))} FROM chain c JOIN bench_plan p ON p.n = c.n + 1
       )
       INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, created_at, hash)
       SELECT $1, $2 + p.n, -1, $3 - p.n, 'debit', p.ts, c.hash FROM bench_plan p JOIN chain c USING (n) ORDER BY p.n`,
      [walletId, lastSeq, balance, walletHash],
    );
    // The wallet's head moves with its chain, as the service's own appends move it.
    await client.query(
      'UPDATE wallets SET balance = balance - $2, last_seq = last_seq + $2, last_hash = (SELECT hash FROM ledger_entries WHERE wallet_id = $1 AND seq = last_seq + $2) WHERE id = $1',
      [walletId, count],
    );
    await client.query(
      `INSERT INTO insertions (id, play_session_id, game_id, player_id, ledger_entry_id, coins, created_at)
       SELECT p.insertion_id, s.id, $2, $3, l.id, 1, p.ts
         FROM bench_plan p JOIN bench_sessions s USING (session_no)
         JOIN ledger_entries l ON l.wallet_id = $1 AND l.seq = $4 + p.n`,
      [walletId, args.gameId, args.playerId, lastSeq],
    );
    // Each earning's developer ledger entry (developer_earnings is a view of them), continuing the developer's chain, and its head.
    const earning = (p: string) => ({
      developer_id: '$1::uuid', shard: '$5::smallint', seq: `$2::integer + ${p}.n`, kind: "'earning'", amount_mills: '175', balance_after_mills: `$3::bigint + 175 * ${p}.n`,
      insertion_id: `${p}.insertion_id`, game_id: '$6::uuid', coins: '1', gross_mills: '250', payout_id: 'NULL', created_at: `${p}.ts`,
    });
    await client.query(
      `WITH RECURSIVE chain AS (
         SELECT p.n, ${chainHashSql('developer', '$4::bytea', earning('p'))} AS hash FROM bench_plan p WHERE p.n = 1
         UNION ALL
         SELECT p.n, ${chainHashSql('developer', 'c.hash', earning('p'))} FROM chain c JOIN bench_plan p ON p.n = c.n + 1
       )
       INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, insertion_id, game_id, coins, gross_mills, created_at, hash)
       SELECT $1, $5, $2 + p.n, 'earning', 175, $3::bigint + 175 * p.n, p.insertion_id, $6, 1, 250, p.ts, c.hash FROM bench_plan p JOIN chain c USING (n) ORDER BY p.n`,
      [developer.developer_id, developer.seq, developer.balance, developer.last_hash, developer.shard, args.gameId],
    );
    await client.query(
      `UPDATE developer_balances b SET balance_mills = e.balance_after_mills, last_seq = e.seq, last_hash = e.hash
         FROM developer_ledger_entries e
        WHERE b.developer_id = $1 AND b.shard = $2 AND e.developer_id = $1 AND e.shard = $2 AND e.seq = $3`,
      [developer.developer_id, developer.shard, developer.seq + count],
    );
    await client.query(
      `INSERT INTO scores (game_id, insertion_id, play_session_id, player_id, score, source, initials, achieved_at, week_start)
       SELECT $1, p.insertion_id, s.id, $2, ($3 - p.n) * 1000 + (random() * 999)::int, 'player',
              CASE WHEN p.n % 10 = 0 THEN NULL ELSE chr(65 + p.n % 26) || chr(65 + (p.n / 26) % 26) || chr(65 + (p.n / 676) % 26) END,
              p.ts, (date_trunc('week', p.ts AT TIME ZONE 'UTC'))::date
         FROM bench_plan p JOIN bench_sessions s USING (session_no)`,
      [args.gameId, args.playerId, count],
    );
    await client.query('COMMIT');
    const { rows: c } = await client.query<{ ledger: number; scores: number; week: number }>(
      `SELECT (SELECT count(*) FROM ledger_entries WHERE wallet_id = $1)::int AS ledger,
              (SELECT count(*) FROM scores WHERE game_id = $2)::int AS scores,
              (SELECT count(*) FROM scores WHERE game_id = $2 AND week_start = (date_trunc('week', now() AT TIME ZONE 'UTC'))::date)::int AS week`,
      [walletId, args.gameId],
    );
    return { ledgerEntries: c[0].ledger, scores: c[0].scores, scoresThisWeek: c[0].week, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.query('RESET session_replication_role').catch(() => undefined);
    client.release();
  }
}

/** Statistics, visibility map and a checkpoint after bulk writes, so no scenario pays for them. */
export async function settle(db: Pool): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await client.query('VACUUM ANALYZE');
    await client.query('CHECKPOINT');
  } finally {
    client.release();
  }
}
