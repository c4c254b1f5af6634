import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

/** Unlocks: one row per player and achievement (primary key), written once. */
@Injectable()
export class AchievementsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Records a first unlock; undefined when the player already had it. Concurrent duplicates
   * wait on the winner's row and then insert nothing.
   */
  async insertUnlock(playerId: string, achievementId: string, playSessionId: string): Promise<Date | undefined> {
    const row = await this.uow.one<{ unlocked_at: Date }>(
      `INSERT INTO achievement_unlocks (player_id, achievement_id, play_session_id) VALUES ($1, $2, $3)
       ON CONFLICT (player_id, achievement_id) DO NOTHING
       RETURNING unlocked_at`,
      [playerId, achievementId, playSessionId],
    );
    return row?.unlocked_at;
  }

  async unlockedAt(playerId: string, achievementId: string): Promise<Date | undefined> {
    const row = await this.uow.one<{ unlocked_at: Date }>(
      'SELECT unlocked_at FROM achievement_unlocks WHERE player_id = $1 AND achievement_id = $2',
      [playerId, achievementId],
    );
    return row?.unlocked_at;
  }
}
