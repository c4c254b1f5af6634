import { BOARD_ALL_SQL, BOARD_WEEK_SQL, PLAYER_BEST_ALL_SQL, PLAYER_BEST_WEEK_SQL } from '../../src/modules/scoring/scoring.repository';
import { weekStartOf } from '../../src/modules/scoring/leaderboard.rules';
import { createTestApp, TestApp } from '../support/app';
import { behindTriggers } from '../support/database';

/**
 * The leaderboard is read from an index, never a scan of every score: 100,000 scores are
 * written with SQL (volume only the database can make quickly), then the plans of the exact
 * statements the service runs are checked.
 */
describe('leaderboard reads use the board indexes (100,000 scores)', () => {
  let t: TestApp;
  let gameId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const { rows } = await t.db.query<{ game_id: string }>(`
      WITH account AS (
        INSERT INTO accounts (email, password_hash, display_name, email_verified_at)
        VALUES ('bulk@example.com', 'x', 'Bulk', now()) RETURNING id
      ), player AS (
        INSERT INTO players (account_id, display_name) SELECT id, 'Bulk' FROM account RETURNING id
      ), wallet AS (
        INSERT INTO wallets (player_id) SELECT id FROM player RETURNING id
      ), developer AS (
        INSERT INTO developers (account_id, display_name) SELECT id, 'Bulk Dev' FROM account RETURNING id
      ), game AS (
        INSERT INTO games (developer_id, slug, title, coins_per_credit, status)
        SELECT id, 'bulk-game', 'Bulk', 1, 'published' FROM developer RETURNING id
      ), version AS (
        INSERT INTO game_versions (game_id, label, entry_url, status) SELECT id, 'v1', '/g', 'approved' FROM game RETURNING id, game_id
      )
      SELECT game.id AS game_id, player.id AS player_id, wallet.id AS wallet_id, version.id AS version_id
      FROM game, player, wallet, version`);
    gameId = rows[0].game_id;
    await t.db.query(`
      INSERT INTO play_sessions (game_id, game_version_id, player_id, player_ref, test_mode, coins_per_credit)
      SELECT g.id, v.id, p.id, 'pr_' || repeat('0', 32), false, 1
      FROM games g JOIN game_versions v ON v.game_id = g.id, players p WHERE g.id = $1`, [gameId]);
    await t.db.query(`
      INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, hash)
      SELECT w.id, n, 1, n, 'credit', sha256(n::text::bytea) FROM wallets w, generate_series(1, 100000) n`);
    // Behind triggers (as a replica applies rows): the per-row foreign-key and not-voided checks took
    // 19 of the file's 21 s; every row here is made from the rows it references, and nothing is voided.
    await behindTriggers(t.db, `
      INSERT INTO insertions (play_session_id, game_id, player_id, ledger_entry_id, coins)
      SELECT s.id, s.game_id, s.player_id, l.id, 1 FROM play_sessions s, ledger_entries l`);
    // Scores spread over 100 weeks; every fifth still without initials (off the board).
    await behindTriggers(t.db, `
      INSERT INTO scores (game_id, insertion_id, play_session_id, player_id, score, source, initials, achieved_at, week_start)
      SELECT i.game_id, i.id, i.play_session_id, i.player_id, (random() * 1e12)::bigint, 'player',
             CASE WHEN random() < 0.2 THEN NULL ELSE 'AAA' END, ts, (date_trunc('week', ts AT TIME ZONE 'UTC'))::date
      FROM (SELECT *, now() - (random() * interval '700 days') AS ts FROM insertions) i`);
    await t.db.query('ANALYZE scores');
  });
  afterAll(async () => t.close());

  async function plan(sql: string, params: unknown[]): Promise<string> {
    const { rows } = await t.db.query(`EXPLAIN ${sql}`, params);
    return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
  }

  it('holds 100,000 scores', async () => {
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM scores WHERE game_id = $1', [gameId]);
    expect(rows[0].n).toBe(100000);
  });

  it('reads the all-time board from scores_board_all_idx without a sequential scan or sort', async () => {
    const text = await plan(BOARD_ALL_SQL, [gameId]);
    expect(text).toContain('scores_board_all_idx');
    expect(text).not.toMatch(/Seq Scan/);
    expect(text).not.toMatch(/\bSort\b/);
  });

  it('reads the weekly board from scores_board_week_idx without a sequential scan or sort', async () => {
    const text = await plan(BOARD_WEEK_SQL, [gameId, weekStartOf(new Date())]);
    expect(text).toContain('scores_board_week_idx');
    expect(text).not.toMatch(/Seq Scan/);
    expect(text).not.toMatch(/\bSort\b/);
  });

  it('answers the same top ten as a full sort would', async () => {
    const board = await t.db.query(BOARD_ALL_SQL, [gameId]);
    const full = await t.db.query(
      `SELECT id FROM scores WHERE game_id = $1 AND initials IS NOT NULL ORDER BY score DESC, achieved_at, id`, [gameId]);
    expect(board.rows.map((r) => r.id)).toEqual(full.rows.slice(0, 10).map((r) => r.id));
  });

  it("finds a player's best through scores_player_best_idx and counts its rank on the board indexes, in one statement", async () => {
    // A second player holding three scores deep in the board (about 40,000th, 60,000th, 90,000th of all).
    const { rows: [second] } = await t.db.query<{ id: string }>(`
      WITH account AS (
        INSERT INTO accounts (email, password_hash, display_name, email_verified_at)
        VALUES ('second@example.com', 'x', 'Second', now()) RETURNING id
      ) INSERT INTO players (account_id, display_name) SELECT id, 'Second' FROM account RETURNING id`);
    await t.db.query(
      `UPDATE scores SET player_id = $2 WHERE id IN (
         (SELECT id FROM scores WHERE game_id = $1 ORDER BY score DESC OFFSET 40000 LIMIT 1),
         (SELECT id FROM scores WHERE game_id = $1 ORDER BY score DESC OFFSET 60000 LIMIT 1),
         (SELECT id FROM scores WHERE game_id = $1 ORDER BY score DESC OFFSET 90000 LIMIT 1))`,
      [gameId, second!.id],
    );
    await t.db.query('ANALYZE scores');
    const nobody = '00000000-0000-4000-8000-000000000000';
    const week = weekStartOf(new Date());

    for (const player of [second!.id, nobody]) {
      const all = await plan(PLAYER_BEST_ALL_SQL, [gameId, player]);
      expect(all).toContain('scores_player_best_idx');
      expect(all).toContain('scores_board_all_idx');
      expect(all).not.toMatch(/Seq Scan/);
      expect(all).not.toMatch(/\bSort\b/);
      const weekly = await plan(PLAYER_BEST_WEEK_SQL, [gameId, player, week]);
      expect(weekly).toContain('scores_board_week_idx');
      expect(weekly).not.toMatch(/Seq Scan/);
      expect(weekly).not.toMatch(/\bSort\b/);
    }

    // The rank it counts is the place a full sort gives.
    const best = await t.db.query<{ score: string; rank: number }>(PLAYER_BEST_ALL_SQL, [gameId, second!.id]);
    const full = await t.db.query<{ score: string; player_id: string }>(
      'SELECT score::text AS score, player_id FROM scores WHERE game_id = $1 AND initials IS NOT NULL AND removed_at IS NULL ORDER BY score DESC, achieved_at, id',
      [gameId],
    );
    const mine = await t.db.query<{ score: string }>('SELECT max(score)::text AS score FROM scores WHERE player_id = $1', [second!.id]);
    expect(best.rows).toHaveLength(1);
    expect(best.rows[0]!.score).toBe(mine.rows[0]!.score);
    // The best may lack initials (every fifth does): then its rank is the place it would take.
    const ahead = full.rows.filter((r) => BigInt(r.score) > BigInt(mine.rows[0]!.score)).length;
    expect(best.rows[0]!.rank).toBe(ahead + 1);
    expect(best.rows[0]!.rank).toBeGreaterThan(30000);
    expect((await t.db.query(PLAYER_BEST_ALL_SQL, [gameId, nobody])).rows).toEqual([]);
  });
});
