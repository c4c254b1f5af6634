import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';

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
    return this.uow.one<PlaySessionRecord>(
      `SELECT ${SESSION_COLUMNS} FROM play_sessions ps JOIN games g ON g.id = ps.game_id WHERE ps.id = $1`,
      [id, idleTimeoutSeconds],
    );
  }

  /** Extends an active session of this player; undefined when it is not (unknown, foreign, ended or idle). */
  async heartbeat(id: string, playerId: string, idleTimeoutSeconds: number): Promise<Date | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.uow.one<{ lastSeenAt: Date }>(
      `UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now())
        WHERE id = $1 AND player_id = $2 AND ended_at IS NULL AND last_seen_at > now() - make_interval(secs => $3)
        RETURNING last_seen_at AS "lastSeenAt"`,
      [id, playerId, idleTimeoutSeconds],
    );
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

  insertionsOf(playSessionId: string): Promise<{ id: string; coins: number; createdAt: Date }[]> {
    return this.uow.query(
      `SELECT id, coins, created_at AS "createdAt" FROM insertions WHERE play_session_id = $1 ORDER BY created_at, id`,
      [playSessionId],
    );
  }

  /** `voided`: an admin returned its coins (CONTRACT §19). */
  latestInsertion(playSessionId: string): Promise<{ id: string; coins: number; createdAt: Date; voided: boolean } | undefined> {
    return this.uow.one(
      `SELECT i.id, i.coins, i.created_at AS "createdAt", EXISTS (SELECT 1 FROM insertion_voids v WHERE v.insertion_id = i.id) AS voided
         FROM insertions i WHERE i.play_session_id = $1 ORDER BY i.created_at DESC, i.id DESC LIMIT 1`,
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
