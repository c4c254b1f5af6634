import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { liveLoginSessionSql } from '../identity';

/** A play session with its game's developer and whether it is still active (by the database clock). */
export interface PlaySessionRecord {
  id: string;
  gameId: string;
  gameVersionId: string;
  developerId: string;
  playerId: string;
  playerRef: string;
  testMode: boolean;
  coinsPerCredit: number;
  /** The game's maxScore now (scores are checked against it). */
  maxScore: number;
  startedAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
  /** Not ended and seen within the idle timeout. */
  active: boolean;
}

export interface InsertionRecord {
  id: string;
  playSessionId: string;
  gameId: string;
  developerId: string;
  playerId: string;
  playerRef: string;
  coins: number;
  /** The game's maxScore now. */
  maxScore: number;
  createdAt: Date;
  /** When an admin voided it (CONTRACT §19); null otherwise. */
  voidedAt: Date | null;
}

const SESSION_COLUMNS = `ps.id, ps.game_id AS "gameId", ps.game_version_id AS "gameVersionId", g.developer_id AS "developerId",
  ps.player_id AS "playerId", ps.player_ref AS "playerRef", ps.test_mode AS "testMode", ps.coins_per_credit AS "coinsPerCredit",
  g.max_score::float8 AS "maxScore", ps.started_at AS "startedAt", ps.last_seen_at AS "lastSeenAt", ps.ended_at AS "endedAt",
  (ps.ended_at IS NULL AND ps.last_seen_at > now() - make_interval(secs => $2)) AS active`;

/**
 * The statements below with the board's size as a literal (a LIMIT parameter would leave a generic
 * plan guessing at it), built once per size.
 */
const targetTexts = new Map<number, { score: string; trusted: string }>();
function targetTextsFor(boardSize: number): { score: string; trusted: string } {
  let texts = targetTexts.get(boardSize);
  if (!texts) targetTexts.set(boardSize, (texts = { score: scoreTargetSql(boardSize), trusted: trustedTargetSql(boardSize) }));
  return texts;
}

/** See `scoreTargetRead`. The board subquery is the partial index scan of BOARD_ALL_SQL (scoring). */
const scoreTargetSql = (boardSize: number) => `SELECT ${SESSION_COLUMNS}, li.id AS "insertionId", li.voided AS "insertionVoided", li.scored AS "insertionScored",
  now() AS now,
  (SELECT coalesce(json_agg(b), '[]'::json) FROM (
     SELECT s.id, s.score::text AS score, s.achieved_at FROM scores s
      WHERE s.game_id = ps.game_id AND s.initials IS NOT NULL AND s.removed_at IS NULL
      ORDER BY s.score DESC, s.achieved_at ASC, s.id ASC LIMIT ${boardSize}) b) AS board
  FROM play_sessions ps JOIN games g ON g.id = ps.game_id
  LEFT JOIN LATERAL (
    SELECT i.id, EXISTS (SELECT 1 FROM insertion_voids v WHERE v.insertion_id = i.id) AS voided,
           EXISTS (SELECT 1 FROM scores sc WHERE sc.insertion_id = i.id) AS scored
      FROM insertions i WHERE i.play_session_id = ps.id ORDER BY i.created_at DESC, i.id DESC LIMIT 1
  ) li ON true
  WHERE ps.id = $1`;

/**
 * An insertion as `insertion()` reads it, with what a trusted score needs: whether it is scored,
 * the player's saved initials, the game's all-time top ten (as in scoreTargetSql) and the
 * transaction's clock. Reads the scoring and identity modules' tables (read-only).
 */
const trustedTargetSql = (boardSize: number) => `SELECT i.id, i.play_session_id AS "playSessionId", i.game_id AS "gameId", g.developer_id AS "developerId",
       i.player_id AS "playerId", ps.player_ref AS "playerRef", i.coins, g.max_score::float8 AS "maxScore", i.created_at AS "createdAt",
       v.voided_at AS "voidedAt", EXISTS (SELECT 1 FROM scores sc WHERE sc.insertion_id = i.id) AS scored, p.initials AS "playerInitials",
       now() AS now,
       (SELECT coalesce(json_agg(b), '[]'::json) FROM (
          SELECT s.id, s.score::text AS score, s.achieved_at FROM scores s
           WHERE s.game_id = i.game_id AND s.initials IS NOT NULL AND s.removed_at IS NULL
           ORDER BY s.score DESC, s.achieved_at ASC, s.id ASC LIMIT ${boardSize}) b) AS board
  FROM insertions i
  JOIN play_sessions ps ON ps.id = i.play_session_id
  JOIN games g ON g.id = i.game_id
  JOIN players p ON p.id = i.player_id
  LEFT JOIN insertion_voids v ON v.insertion_id = i.id
 WHERE i.id = $1 AND g.developer_id = $2`;

/**
 * See `heartbeat`: only an active session of this player, only while the login session `$3` is live.
 * Its transaction commits without waiting for the WAL flush (`synchronous_commit = off`, set for
 * this transaction only by the joined one-row subquery): a crash may lose the last fraction of a
 * second of `last_seen_at`, which the next heartbeat writes again. Money never does this.
 */
const HEARTBEAT_SQL = `UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now())
  FROM (SELECT set_config('synchronous_commit', 'off', true)) AS durability
  WHERE id = $1 AND player_id = $2 AND ended_at IS NULL AND last_seen_at > now() - make_interval(secs => $4)
    AND ${liveLoginSessionSql('$3')}
  RETURNING last_seen_at AS "lastSeenAt"`;

const TOUCH_RIDER = `UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now()) WHERE id = $1::uuid AND {when} RETURNING 1`;

const BY_ID_SQL = `SELECT ${SESSION_COLUMNS} FROM play_sessions ps JOIN games g ON g.id = ps.game_id WHERE ps.id = $1`;

/** Play sessions and their insertions. Non-uuid ids find nothing instead of reaching PostgreSQL. */
@Injectable()
export class PlaySessionRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async insert(input: {
    gameId: string;
    gameVersionId: string;
    playerId: string;
    playerRef: string;
    testMode: boolean;
    coinsPerCredit: number;
  }): Promise<{ id: string; lastSeenAt: Date; displayName: string }> {
    const row = await this.uow.one<{ id: string; lastSeenAt: Date; displayName: string }>(
      `INSERT INTO play_sessions (game_id, game_version_id, player_id, player_ref, test_mode, coins_per_credit)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, last_seen_at AS "lastSeenAt", (SELECT display_name FROM players WHERE id = $3) AS "displayName"`,
      [input.gameId, input.gameVersionId, input.playerId, input.playerRef, input.testMode, input.coinsPerCredit],
    );
    return row!;
  }

  async byId(id: string, idleTimeoutSeconds: number): Promise<PlaySessionRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return this.uow.one<PlaySessionRecord>(BY_ID_SQL, [id, idleTimeoutSeconds]);
  }

  /** `byId` as a statement for a use case to send with its first write (a non-uuid id finds nothing). */
  byIdRead(id: string, idleTimeoutSeconds: number): { text: string; values: unknown[] } {
    return { text: BY_ID_SQL, values: [isUuid(id) ? id : null, idleTimeoutSeconds] };
  }

  /**
   * A play session with what a player score needs (CONTRACT §9), as one statement: the session
   * (`byId`'s columns), its latest insertion (whether voided, whether scored) and the game's
   * all-time top ten as it stands (`board`, BoardEntry-like JSON: id, score digits, achieved_at),
   * plus the transaction's clock (`now`, the score's achievedAt). The board and "scored" read the
   * scoring module's table: a read-only query, so that a score costs one read.
   */
  scoreTargetRead(id: string, idleTimeoutSeconds: number, boardSize: number): { text: string; values: unknown[] } {
    return { text: targetTextsFor(boardSize).score, values: [isUuid(id) ? id : null, idleTimeoutSeconds] };
  }

  /**
   * Extends an active session of this player while their login session is live (the route trusts
   * a kept login session: PlayerAuth({ sessionCheckedByStatement: true })); undefined when either
   * is not (unknown, foreign, ended or idle; signed out, banned or expired).
   */
  async heartbeat(id: string, playerId: string, loginSessionId: string, idleTimeoutSeconds: number): Promise<Date | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.uow.one<{ lastSeenAt: Date }>(HEARTBEAT_SQL, [id, playerId, loginSessionId, idleTimeoutSeconds]);
    return row?.lastSeenAt;
  }

  /** Ends the session (from any state); a repeat keeps the original `ended_at`. */
  async end(id: string, playerId: string): Promise<Date | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.uow.one<{ endedAt: Date }>(
      `UPDATE play_sessions SET ended_at = COALESCE(ended_at, now()) WHERE id = $1 AND player_id = $2 RETURNING ended_at AS "endedAt"`,
      [id, playerId],
    );
    return row?.endedAt;
  }

  async touch(id: string): Promise<void> {
    await this.uow.query('UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now()) WHERE id = $1', [id]);
  }

  /** See trustedTargetSql: the developer's insertion (none for unknown, `test_` and foreign ids). */
  trustedScoreTargetRead(insertionId: string, developerId: string, boardSize: number): { text: string; values: unknown[] } {
    return { text: targetTextsFor(boardSize).trusted, values: [isUuid(insertionId) ? insertionId : null, developerId] };
  }

  /** `touch` as a write riding on another statement: only when the host's write happened. */
  touchRider(id: string): RidingWrite {
    return { sql: TOUCH_RIDER, values: [id] };
  }

  /** A play session's insertions, oldest first, voided ones too (`voidedAt`, CONTRACT §19.1). */
  insertionsOf(playSessionId: string): Promise<{ id: string; coins: number; createdAt: Date; voidedAt: Date | null }[]> {
    return this.uow.query(
      `SELECT i.id, i.coins, i.created_at AS "createdAt", v.voided_at AS "voidedAt"
         FROM insertions i LEFT JOIN insertion_voids v ON v.insertion_id = i.id
        WHERE i.play_session_id = $1 ORDER BY i.created_at, i.id`,
      [playSessionId],
    );
  }

  async insertion(id: string): Promise<InsertionRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return this.uow.one<InsertionRecord>(
      `SELECT i.id, i.play_session_id AS "playSessionId", i.game_id AS "gameId", g.developer_id AS "developerId",
              i.player_id AS "playerId", ps.player_ref AS "playerRef", i.coins, g.max_score::float8 AS "maxScore", i.created_at AS "createdAt",
              v.voided_at AS "voidedAt"
         FROM insertions i
         JOIN play_sessions ps ON ps.id = i.play_session_id
         JOIN games g ON g.id = i.game_id
         LEFT JOIN insertion_voids v ON v.insertion_id = i.id
        WHERE i.id = $1`,
      [id],
    );
  }
}
