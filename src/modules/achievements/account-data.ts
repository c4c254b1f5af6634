import type { UnitOfWork } from '../../database/unit-of-work';

/** An unlock as a person's data export shows it (CONTRACT §20). */
export interface UnlockExport {
  achievementId: string;
  playSessionId: string;
  unlockedAt: Date;
}

/** The export's `achievements` part (CONTRACT §20): the player's unlocks, oldest first. */
export function unlocksExport(uow: UnitOfWork, playerId: string): Promise<UnlockExport[]> {
  return uow.query<UnlockExport>(
    `SELECT achievement_id AS "achievementId", play_session_id AS "playSessionId", unlocked_at AS "unlockedAt"
       FROM achievement_unlocks WHERE player_id = $1 ORDER BY unlocked_at, achievement_id`,
    [playerId],
  );
}
