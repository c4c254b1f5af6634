import { Injectable } from '@nestjs/common';
import { AchievementsRepository, UnlockedAchievement } from './achievements.repository';

export type { UnlockedAchievement } from './achievements.repository';

/** Reads of a player's achievements for other modules (the profile page). */
@Injectable()
export class AchievementsService {
  constructor(private readonly unlocks: AchievementsRepository) {}

  /** Every achievement the player unlocked, across games, newest first. */
  unlockedBy(playerId: string): Promise<UnlockedAchievement[]> {
    return this.unlocks.unlockedBy(playerId);
  }
}
