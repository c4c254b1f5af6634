import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { liveLoginSessionSql } from '../identity';
import { BY_ID_SQL, InsertionRecord, PlaySessionRecord } from './play-session.parts';

export type { InsertionRecord, PlaySessionRecord } from './play-session.parts';

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

/** Play sessions and their insertions. Non-uuid ids find nothing instead of reaching PostgreSQL. */
/** What ending a play session did. */
export interface PlaySessionEnd {
  endedAt: Date;
  /** This call ended it (false: it had been ended before). */
  changed: boolean;
  testMode: boolean;
  gameId: string;
  developerId: string;
  playerRef: string;
}

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

  /**
   * Ends the session (from any state); a repeat keeps the original `ended_at`. `changed`: this call
   * ended it (the row is locked, so of two concurrent ends exactly one sees it open).
   */
  async end(id: string, playerId: string): Promise<PlaySessionEnd | undefined> {
    if (!isUuid(id)) return undefined;
    return this.uow.one<PlaySessionEnd & Record<string, unknown>>(
      `WITH old AS (SELECT id, ended_at FROM play_sessions WHERE id = $1 AND player_id = $2 FOR NO KEY UPDATE)
       UPDATE play_sessions ps SET ended_at = COALESCE(ps.ended_at, now()) FROM old, games g
        WHERE ps.id = old.id AND g.id = ps.game_id
        RETURNING ps.ended_at AS "endedAt", old.ended_at IS NULL AS changed, ps.test_mode AS "testMode", ps.game_id AS "gameId",
                  g.developer_id AS "developerId", ps.player_ref AS "playerRef"`,
      [id, playerId],
    );
  }

  async touch(id: string): Promise<void> {
    await this.uow.query('UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now()) WHERE id = $1', [id]);
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
