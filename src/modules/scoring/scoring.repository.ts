import { Injectable } from '@nestjs/common';
import { RidingWrite, riderValues, withRiders } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { isCheckViolation } from '../../errors/database-errors';
import { isUuid } from '../../database/uuid';
import { cursorTimestamp } from '../../http/keyset-cursor';
import { BOARD_SIZE, BoardEntry } from './leaderboard.rules';
import { InsertionVoidedError } from './scoring.errors';

import type { ScoreSource } from './score.entity';

export type { ScoreSource } from './score.entity';

export interface NewScore {
  /** Chosen by the caller when its answer names the score before it is saved; else the database's. */
  id?: string;
  gameId: string;
  insertionId: string;
  playSessionId: string;
  playerId: string;
  /** Decimal digits: bigint travels to PostgreSQL as text, never through a float. */
  score: string;
  source: ScoreSource;
  initials: string | null;
  /** Listed by pendingInitials until initials are set (CONTRACT §16.22). */
  needsInitials?: boolean;
}

export interface SavedScore {
  id: string;
  achievedAt: Date;
}

export interface BoardRow extends BoardEntry {
  initials: string;
  source: ScoreSource;
}

export interface PendingInitialsRow {
  scoreId: string;
  sessionId: string;
  gameSlug: string;
  score: string;
  achievedAt: Date;
}

interface BoardDbRow {
  id: string;
  initials: string;
  score: string;
  achieved_at: Date;
  source: ScoreSource;
}

interface PlayerBestDbRow {
  score: string;
  initials: string | null;
  achieved_at: Date;
  rank: number;
}

const INSERT_SCORE_HEAD = `WITH saved AS (
  INSERT INTO scores (id, game_id, insertion_id, play_session_id, player_id, score, source, initials, needs_initials, achieved_at, week_start)
  VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6::bigint, $7, $8, $9, now(), (date_trunc('week', now() AT TIME ZONE 'UTC'))::date)
  ON CONFLICT ON CONSTRAINT scores_insertion_key DO NOTHING
  RETURNING id, achieved_at
)`;
const INSERT_SCORE_TAIL = 'SELECT id, achieved_at FROM saved';
const INSERT_SCORE = `${INSERT_SCORE_HEAD} ${INSERT_SCORE_TAIL}`;

/**
 * The all-time board's rule, the one place it is written: the scores of game `gameId` (an SQL
 * expression) on the board, in board order, the top ten. Served by scores_board_all_idx.
 */
export const boardAllOf = (gameId: string): string => `FROM scores
  WHERE game_id = ${gameId} AND initials IS NOT NULL AND removed_at IS NULL
  ORDER BY scores.score DESC, scores.achieved_at ASC, scores.id ASC LIMIT ${BOARD_SIZE}`;

/**
 * The all-time top ten: one range scan of scores_board_all_idx, no sort. ORDER BY names
 * scores.score: a bare `score` would be the text alias and sort digits as strings.
 */
export const BOARD_ALL_SQL = `SELECT id, initials, score::text AS score, achieved_at, source ${boardAllOf('$1')}`;

/** One ISO week's top ten: one range scan of scores_board_week_idx, no sort. */
export const BOARD_WEEK_SQL = `SELECT id, initials, score::text AS score, achieved_at, source FROM scores
  WHERE game_id = $1 AND week_start = $2::date AND initials IS NOT NULL AND removed_at IS NULL
  ORDER BY scores.score DESC, scores.achieved_at ASC, scores.id ASC LIMIT ${BOARD_SIZE}`;

/**
 * A player's best saved score of a game (of one ISO week with `week`) and its rank: the player's
 * first entry of scores_player_best_idx (for a week, the first of that week: the walk is over the
 * player's own scores of the game only), then 1 + the board's scores ahead of it in board order
 * (score descending, earlier achieved_at, then id; CONTRACT §16.7), counted on the board's own
 * index (scores_board_all_idx, scores_board_week_idx) from its top down to that score. A best
 * without initials is not on the board: its rank is the place it would take there.
 */
function playerBestSql(week: boolean): string {
  const inWeek = (table: string): string => (week ? ` AND ${table}.week_start = $3::date` : '');
  return `WITH best AS (
    SELECT id, score, initials, achieved_at FROM scores
     WHERE player_id = $2 AND game_id = $1 AND removed_at IS NULL${inWeek('scores')}
     ORDER BY scores.score DESC, scores.achieved_at ASC, scores.id ASC LIMIT 1
  )
  SELECT best.score::text AS score, best.initials, best.achieved_at,
         1 + (SELECT count(*) FROM scores ahead
               WHERE ahead.game_id = $1${inWeek('ahead')} AND ahead.initials IS NOT NULL AND ahead.removed_at IS NULL
                 AND ahead.score >= best.score
                 AND (ahead.score > best.score OR ahead.achieved_at < best.achieved_at
                      OR (ahead.achieved_at = best.achieved_at AND ahead.id < best.id)))::integer AS rank
    FROM best`;
}

/** `$1` game, `$2` player. */
export const PLAYER_BEST_ALL_SQL = playerBestSql(false);
/** `$1` game, `$2` player, `$3` the week's Monday (UTC), YYYY-MM-DD. */
export const PLAYER_BEST_WEEK_SQL = playerBestSql(true);

/** A player's best saved score of a period and the place it takes among the board's scores. */
export interface PlayerBestRow {
  /** Decimal digits. */
  score: string;
  /** Null while the score has none (it is then not on the board). */
  initials: string | null;
  achievedAt: Date;
  /** 1-based, no shared ranks. */
  rank: number;
}

const toBoardRow = (r: BoardDbRow): BoardRow => ({ id: r.id, initials: r.initials, score: r.score, achievedAt: r.achieved_at, source: r.source });

/** A saved score as the admin console lists it (CONTRACT §18). */
export interface AdminScoreRow {
  scoreId: string;
  /** Decimal digits, as on the boards. */
  score: string;
  initials: string | null;
  source: ScoreSource;
  /** The player's account (user) id. */
  playerId: string;
  achievedAt: Date;
  removedAt: Date | null;
  /** `achievedAt` with microseconds, for the cursor. */
  cursorAt: string;
}

/** Where a page of a game's scores starts: after this score in board order. */
export interface ScoreAfter {
  score: string;
  achievedAt: string;
  id: string;
}

/** A score taken off the boards: when, and whether this call did it (false: it already was). */
export interface RemovedScore {
  scoreId: string;
  gameId: string;
  removedAt: Date;
  changed: boolean;
}

/** What `remove` answers: the removal, and the game's developer when this call removed it (the webhook event's recipient). */
export type RemovedScoreRow = RemovedScore & { developerId?: string };

/**
 * Scores and the boards read from them. Both boards are served by partial indexes on scores
 * with initials that were not removed: (game_id, score DESC, achieved_at, id) and the same behind
 * week_start.
 */
@Injectable()
export class ScoringRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Saves a score unless its insertion already has one (scores_insertion_key): undefined then; a
   * voided insertion: InsertionVoidedError (the statement locks the insertion, so a void racing it
   * either waits for the score, or is seen and refuses it: scores_insertion_not_voided).
   * achieved_at is the database's clock; week_start the Monday (UTC) of it. `riders` (the session's
   * touch, the key's answer) write in the same statement, only when the score was saved; their
   * `{result}` is empty.
   */
  async insert(s: NewScore, riders: readonly RidingWrite[] = []): Promise<SavedScore | undefined> {
    const values = [s.id ?? null, s.gameId, s.insertionId, s.playSessionId, s.playerId, s.score, s.source, s.initials, s.needsInitials ?? false];
    const text = riders.length ? withRiders(INSERT_SCORE_HEAD, values.length, riders, 'EXISTS (SELECT 1 FROM saved)', `'{}'::jsonb`, INSERT_SCORE_TAIL) : INSERT_SCORE;
    let row: { id: string; achieved_at: Date } | undefined;
    try {
      row = await this.uow.one<{ id: string; achieved_at: Date }>(text, riders.length ? riderValues(values, riders) : values);
    } catch (error) {
      // A void committed after the target was read: the statement waited for it, then refused (trigger).
      if (isCheckViolation(error, 'scores_insertion_not_voided')) throw new InsertionVoidedError();
      throw error;
    }
    return row ? { id: row.id, achievedAt: row.achieved_at } : undefined;
  }

  /**
   * The public top ten tolerates replication lag (a read replica when DATABASE_READ_URLS is set);
   * inside a transaction it reads the transaction's own view.
   */
  async boardAll(gameId: string): Promise<BoardRow[]> {
    return (await this.uow.queryReplica<BoardDbRow>(BOARD_ALL_SQL, [gameId])).map(toBoardRow);
  }

  /** `weekStart` is the Monday (UTC) of the week, YYYY-MM-DD. Tolerates lag like `boardAll`. */
  async boardWeek(gameId: string, weekStart: string): Promise<BoardRow[]> {
    return (await this.uow.queryReplica<BoardDbRow>(BOARD_WEEK_SQL, [gameId, weekStart])).map(toBoardRow);
  }

  /**
   * The player's best saved score of the game (of the ISO week starting `weekStart` when given)
   * with its rank, in one statement on the primary (a score just saved shows at once); undefined
   * when the player has none.
   */
  async playerBest(gameId: string, playerId: string, weekStart?: string): Promise<PlayerBestRow | undefined> {
    const row = weekStart === undefined
      ? await this.uow.one<PlayerBestDbRow>(PLAYER_BEST_ALL_SQL, [gameId, playerId])
      : await this.uow.one<PlayerBestDbRow>(PLAYER_BEST_WEEK_SQL, [gameId, playerId, weekStart]);
    return row && { score: row.score, initials: row.initials, achievedAt: row.achieved_at, rank: row.rank };
  }

  /**
   * Sets initials on a player's own score, named together with its play session; returns the
   * game of the score, or undefined when no such score is theirs.
   */
  async setInitials(scoreId: string, playSessionId: string, playerId: string, initials: string): Promise<{ gameId: string } | undefined> {
    const row = await this.uow.one<{ game_id: string }>(
      `UPDATE scores SET initials = $4, needs_initials = false
       WHERE id = $1 AND play_session_id = $2 AND player_id = $3
       RETURNING game_id`,
      [scoreId, playSessionId, playerId, initials],
    );
    return row ? { gameId: row.game_id } : undefined;
  }

  /** A player's saved scores whose result asked for initials and that still have none. */
  async pendingInitials(playerId: string): Promise<PendingInitialsRow[]> {
    const rows = await this.uow.query<{ id: string; play_session_id: string; slug: string; score: string; achieved_at: Date }>(
      `SELECT s.id, s.play_session_id, g.slug, s.score::text AS score, s.achieved_at
       FROM scores s JOIN games g ON g.id = s.game_id
       WHERE s.player_id = $1 AND s.needs_initials AND s.initials IS NULL AND s.removed_at IS NULL
       ORDER BY s.achieved_at DESC, s.id DESC`,
      [playerId],
    );
    return rows.map((r) => ({ scoreId: r.id, sessionId: r.play_session_id, gameSlug: r.slug, score: r.score, achievedAt: r.achieved_at }));
  }

  /**
   * Every saved score of a game (of one ISO week when `weekStart` is given), removed ones included,
   * in board order: score descending, earlier first, then id. scores_game_all_idx and
   * scores_game_week_idx give that order; a page after `after` starts at its score in the index
   * (`score <= $`) and skips only the ties before it.
   */
  adminPage(gameId: string, weekStart: string | undefined, after: ScoreAfter | undefined, limit: number): Promise<AdminScoreRow[]> {
    const values: unknown[] = [limit, gameId];
    const conditions = ['s.game_id = $2'];
    if (weekStart !== undefined) {
      values.push(weekStart);
      conditions.push(`s.week_start = $${values.length}::date`);
    }
    if (after) {
      values.push(after.score, after.achievedAt, after.id);
      const [score, at, id] = [values.length - 2, values.length - 1, values.length].map((n) => `$${n}`);
      conditions.push(`s.score <= ${score}::bigint AND (s.score < ${score}::bigint OR s.achieved_at > ${at}::timestamptz OR (s.achieved_at = ${at}::timestamptz AND s.id > ${id}::uuid))`);
    }
    return this.uow.query<AdminScoreRow>(
      `SELECT s.id AS "scoreId", s.score::text AS score, s.initials, s.source, p.account_id AS "playerId", s.achieved_at AS "achievedAt",
              s.removed_at AS "removedAt", ${cursorTimestamp('s.achieved_at')} AS "cursorAt"
         FROM scores s JOIN players p ON p.id = s.player_id
        WHERE ${conditions.join(' AND ')}
        ORDER BY s.score DESC, s.achieved_at ASC, s.id ASC LIMIT $1`,
      values,
    );
  }

  /**
   * Takes a score off every board (CONTRACT §18): the first removal sets `removed_at`; a repeat
   * changes nothing and reports the first time. A concurrent removal waits for this one's row lock
   * and then finds it removed. Undefined for an unknown score.
   */
  async remove(by: { scoreId: string } | { insertionId: string }): Promise<RemovedScoreRow | undefined> {
    const [column, id] = 'scoreId' in by ? ['id', by.scoreId] : ['insertion_id', by.insertionId];
    if (!isUuid(id)) return undefined;
    const changed = await this.uow.one<{ id: string; game_id: string; removed_at: Date; developer_id: string }>(
      `UPDATE scores s SET removed_at = now() FROM games g WHERE s.${column} = $1 AND s.removed_at IS NULL AND g.id = s.game_id
       RETURNING s.id, s.game_id, s.removed_at, g.developer_id`,
      [id],
    );
    if (changed) return { scoreId: changed.id, gameId: changed.game_id, removedAt: changed.removed_at, changed: true, developerId: changed.developer_id };
    const row = await this.uow.one<{ id: string; game_id: string; removed_at: Date | null }>(
      `SELECT id, game_id, removed_at FROM scores WHERE ${column} = $1`,
      [id],
    );
    if (!row || row.removed_at === null) return undefined;
    return { scoreId: row.id, gameId: row.game_id, removedAt: row.removed_at, changed: false };
  }
}
