import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { AchievementUnlock } from './achievement-unlock.entity';

/** An achievement a player unlocked, as the player's profile shows it. */
export interface UnlockedAchievement {
  key: string;
  name: string;
  iconKey: string;
  gameTitle: string;
  gameSlug: string;
  unlockedAt: Date;
}

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

  /** The player's unlocks across games, newest first (the primary key's player_id leads). */
  unlockedBy(playerId: string): Promise<UnlockedAchievement[]> {
    return this.uow.query<UnlockedAchievement>(
      `SELECT a.key, a.name, a.icon_key AS "iconKey", g.title AS "gameTitle", g.slug AS "gameSlug", u.unlocked_at AS "unlockedAt"
         FROM achievement_unlocks u
         JOIN achievements a ON a.id = u.achievement_id
         JOIN games g ON g.id = a.game_id
        WHERE u.player_id = $1
        ORDER BY u.unlocked_at DESC, a.name`,
      [playerId],
    );
  }

  async unlockedAt(playerId: string, achievementId: string): Promise<Date | undefined> {
    const unlock = await this.uow.manager.getRepository(AchievementUnlock).findOne({ select: { unlockedAt: true }, where: { playerId, achievementId } });
    return unlock?.unlockedAt;
  }
}
