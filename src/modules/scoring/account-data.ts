import type { UnitOfWork } from '../../database/unit-of-work';

/** A saved score as a person's data export shows it (CONTRACT §20); `score` a digit string as on the boards. */
export interface ScoreExport {
  id: string;
  gameId: string;
  playSessionId: string;
  score: string;
  source: string;
  initials: string | null;
  achievedAt: Date;
  removedAt: Date | null;
}

/** The export's `scores` part (CONTRACT §20): every score of the player, oldest first, removed ones included. */
export function scoresExport(uow: UnitOfWork, playerId: string): Promise<ScoreExport[]> {
  return uow.query<ScoreExport>(
    `SELECT id, game_id AS "gameId", play_session_id AS "playSessionId", score::text AS score, source, initials,
            achieved_at AS "achievedAt", removed_at AS "removedAt"
       FROM scores WHERE player_id = $1 ORDER BY achieved_at, id`,
    [playerId],
  );
}
