import type { UnitOfWork } from '../../database/unit-of-work';

/** A play session as a person's data export shows it (CONTRACT §20). */
export interface PlaySessionExport {
  id: string;
  gameId: string;
  gameVersionId: string;
  playerRef: string;
  testMode: boolean;
  startedAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
}

/** The export's `playSessions` part (CONTRACT §20): the player's play sessions, oldest first. */
export function playSessionsExport(uow: UnitOfWork, playerId: string): Promise<PlaySessionExport[]> {
  return uow.query<PlaySessionExport>(
    `SELECT id, game_id AS "gameId", game_version_id AS "gameVersionId", player_ref AS "playerRef", test_mode AS "testMode",
            started_at AS "startedAt", last_seen_at AS "lastSeenAt", ended_at AS "endedAt"
       FROM play_sessions WHERE player_id = $1 ORDER BY started_at, id`,
    [playerId],
  );
}
