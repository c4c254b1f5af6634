import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { BOARD_SIZE, BoardEntry } from './leaderboard.rules';

import type { ScoreSource } from './score.entity';

export type { ScoreSource } from './score.entity';

export interface NewScore {
  gameId: string;
  insertionId: string;
  playSessionId: string;
  playerId: string;
  /** Decimal digits: bigint travels to PostgreSQL as text, never through a float. */
  score: string;
  source: ScoreSource;
  initials: string | null;
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

/**
 * The all-time top ten: one range scan of scores_board_all_idx, no sort. ORDER BY names
 * scores.score: a bare `score` would be the text alias and sort digits as strings.
 */
export const BOARD_ALL_SQL = `SELECT id, initials, score::text AS score, achieved_at, source FROM scores
  WHERE game_id = $1 AND initials IS NOT NULL AND removed_at IS NULL
  ORDER BY scores.score DESC, scores.achieved_at ASC, scores.id ASC LIMIT ${BOARD_SIZE}`;

/** One ISO week's top ten: one range scan of scores_board_week_idx, no sort. */
export const BOARD_WEEK_SQL = `SELECT id, initials, score::text AS score, achieved_at, source FROM scores
  WHERE game_id = $1 AND week_start = $2::date AND initials IS NOT NULL AND removed_at IS NULL
  ORDER BY scores.score DESC, scores.achieved_at ASC, scores.id ASC LIMIT ${BOARD_SIZE}`;

const toBoardRow = (r: BoardDbRow): BoardRow => ({ id: r.id, initials: r.initials, score: r.score, achievedAt: r.achieved_at, source: r.source });

/** A score taken off the boards: when, and whether this call did it (false: it already was). */
export interface RemovedScore {
  scoreId: string;
  gameId: string;
  removedAt: Date;
  changed: boolean;
}

/**
 * Scores and the boards read from them. Both boards are served by partial indexes on scores
 * with initials that were not removed: (game_id, score DESC, achieved_at, id) and the same behind
 * week_start.
 */
@Injectable()
export class ScoringRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Saves a score unless its insertion already has one (scores_insertion_key): undefined then.
   * achieved_at is the database's clock; week_start the Monday (UTC) of it.
   */
  async insert(s: NewScore): Promise<SavedScore | undefined> {
    const row = await this.uow.one<{ id: string; achieved_at: Date }>(
      `INSERT INTO scores (game_id, insertion_id, play_session_id, player_id, score, source, initials, achieved_at, week_start)
       VALUES ($1, $2, $3, $4, $5::bigint, $6, $7, now(), (date_trunc('week', now() AT TIME ZONE 'UTC'))::date)
       ON CONFLICT ON CONSTRAINT scores_insertion_key DO NOTHING
       RETURNING id, achieved_at`,
      [s.gameId, s.insertionId, s.playSessionId, s.playerId, s.score, s.source, s.initials],
    );
    return row ? { id: row.id, achievedAt: row.achieved_at } : undefined;
  }

  async isInsertionScored(insertionId: string): Promise<boolean> {
    const row = await this.uow.one('SELECT 1 FROM scores WHERE insertion_id = $1', [insertionId]);
    return row !== undefined;
  }

  /** Marks a saved score as waiting for initials (listed by pendingInitials). */
  async markNeedsInitials(scoreId: string): Promise<void> {
    await this.uow.query('UPDATE scores SET needs_initials = true WHERE id = $1', [scoreId]);
  }

  /**
   * The public top ten tolerates replication lag (a read replica when DATABASE_READ_URLS is set);
   * inside a transaction (placing a new score) it reads the transaction's own view.
   */
  async boardAll(gameId: string): Promise<BoardRow[]> {
    return (await this.uow.queryReplica<BoardDbRow>(BOARD_ALL_SQL, [gameId])).map(toBoardRow);
  }

  /** `weekStart` is the Monday (UTC) of the week, YYYY-MM-DD. Tolerates lag like `boardAll`. */
  async boardWeek(gameId: string, weekStart: string): Promise<BoardRow[]> {
    return (await this.uow.queryReplica<BoardDbRow>(BOARD_WEEK_SQL, [gameId, weekStart])).map(toBoardRow);
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
   * Takes a score off every board (CONTRACT §18): the first removal sets `removed_at`; a repeat
   * changes nothing and reports the first time. A concurrent removal waits for this one's row lock
   * and then finds it removed. Undefined for an unknown score.
   */
  async remove(by: { scoreId: string } | { insertionId: string }): Promise<RemovedScore | undefined> {
    const [column, id] = 'scoreId' in by ? ['id', by.scoreId] : ['insertion_id', by.insertionId];
    if (!isUuid(id)) return undefined;
    const changed = await this.uow.one<{ id: string; game_id: string; removed_at: Date }>(
      `UPDATE scores SET removed_at = now() WHERE ${column} = $1 AND removed_at IS NULL RETURNING id, game_id, removed_at`,
      [id],
    );
    if (changed) return { scoreId: changed.id, gameId: changed.game_id, removedAt: changed.removed_at, changed: true };
    const row = await this.uow.one<{ id: string; game_id: string; removed_at: Date | null }>(
      `SELECT id, game_id, removed_at FROM scores WHERE ${column} = $1`,
      [id],
    );
    if (!row || row.removed_at === null) return undefined;
    return { scoreId: row.id, gameId: row.game_id, removedAt: row.removed_at, changed: false };
  }
}
