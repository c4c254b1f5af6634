import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUniqueViolation } from '../../errors/database-errors';
import { Achievement, AchievementStatus } from './achievement.entity';
import { AchievementKeyTakenError } from './developer-portal.errors';

export type { AchievementStatus } from './achievement.entity';

/** An achievement definition as other modules see it. */
export type AchievementRecord = Omit<Achievement, 'updatedAt'>;

type Fields = { key: string; name: string; description: string; iconKey: string; secret: boolean };

/** Achievement definitions, through TypeORM's entity API on the unit of work's manager. */
@Injectable()
export class AchievementRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get achievements() {
    return this.uow.manager.getRepository(Achievement);
  }

  /** Retired achievements count too: they keep their key and their place. */
  count(gameId: string): Promise<number> {
    return this.achievements.countBy({ gameId });
  }

  async insert(gameId: string, position: number, input: Fields): Promise<AchievementRecord> {
    const achievement = this.achievements.create({ gameId, position, ...input });
    try {
      // Fills id, status and the timestamps from the database's defaults.
      await this.achievements.insert(achievement);
    } catch (error) {
      if (isUniqueViolation(error, 'achievements_game_key_key')) throw new AchievementKeyTakenError(input.key);
      throw error;
    }
    return achievement;
  }

  list(gameId: string): Promise<AchievementRecord[]> {
    return this.achievements.find({ where: { gameId }, order: { position: 'ASC' } });
  }

  async byKey(gameId: string, key: string): Promise<AchievementRecord | undefined> {
    return (await this.achievements.findOneBy({ gameId, key })) ?? undefined;
  }

  /**
   * Locks the definition for a change: an unlock's foreign-key check (FOR KEY SHARE) then waits for
   * us, and one already inserted is seen by the check that follows.
   */
  async byKeyForUpdate(gameId: string, key: string): Promise<AchievementRecord | undefined> {
    return (await this.achievements.findOne({ where: { gameId, key }, lock: { mode: 'pessimistic_write' } })) ?? undefined;
  }

  /** Distinct players who unlocked each achievement of the game (test-mode unlocks are never stored). */
  async unlockCounts(gameId: string): Promise<Map<string, number>> {
    const rows = await this.uow.query<{ achievementId: string; count: number }>(
      `SELECT u.achievement_id AS "achievementId", count(*)::int AS count
         FROM achievement_unlocks u JOIN achievements a ON a.id = u.achievement_id
        WHERE a.game_id = $1 GROUP BY u.achievement_id`,
      [gameId],
    );
    return new Map(rows.map((row) => [row.achievementId, row.count]));
  }

  async unlockCount(achievementId: string): Promise<number> {
    const row = await this.uow.one<{ count: number }>('SELECT count(*)::int AS count FROM achievement_unlocks WHERE achievement_id = $1', [achievementId]);
    return row!.count;
  }

  /** Read from the achievements module's table: whether any player has unlocked it. */
  async hasUnlocks(achievementId: string): Promise<boolean> {
    return (await this.uow.query('SELECT 1 FROM achievement_unlocks WHERE achievement_id = $1 LIMIT 1', [achievementId])).length > 0;
  }

  async update(achievementId: string, patch: Partial<Fields>): Promise<AchievementRecord> {
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<Fields>;
    try {
      await this.achievements.update({ id: achievementId }, { ...changes, updatedAt: () => 'now()' });
    } catch (error) {
      if (isUniqueViolation(error, 'achievements_game_key_key')) throw new AchievementKeyTakenError(patch.key!);
      throw error;
    }
    return this.achievements.findOneByOrFail({ id: achievementId });
  }

  async retire(achievementId: string): Promise<AchievementRecord> {
    await this.achievements.update({ id: achievementId }, { status: 'retired' satisfies AchievementStatus, updatedAt: () => 'now()' });
    return this.achievements.findOneByOrFail({ id: achievementId });
  }
}
