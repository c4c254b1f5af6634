import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUniqueViolation } from '../../errors/database-errors';
import { AchievementKeyTakenError } from './developer-portal.errors';

export type AchievementStatus = 'active' | 'retired';

/** An achievement definition as other modules see it. */
export interface AchievementRecord {
  id: string;
  gameId: string;
  key: string;
  name: string;
  description: string;
  iconKey: string;
  secret: boolean;
  status: AchievementStatus;
  position: number;
  createdAt: Date;
}

const COLUMNS = `id, game_id AS "gameId", key, name, description, icon_key AS "iconKey", secret, status, position, created_at AS "createdAt"`;

@Injectable()
export class AchievementRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /** Retired achievements count too: they keep their key and their place. */
  async count(gameId: string): Promise<number> {
    const row = await this.uow.one<{ count: number }>('SELECT count(*)::int AS count FROM achievements WHERE game_id = $1', [gameId]);
    return row!.count;
  }

  async insert(
    gameId: string,
    position: number,
    input: { key: string; name: string; description: string; iconKey: string; secret: boolean },
  ): Promise<AchievementRecord> {
    try {
      return (await this.uow.one<AchievementRecord>(
        `INSERT INTO achievements (game_id, key, name, description, icon_key, secret, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [gameId, input.key, input.name, input.description, input.iconKey, input.secret, position],
      ))!;
    } catch (error) {
      if (isUniqueViolation(error, 'achievements_game_key_key')) throw new AchievementKeyTakenError(input.key);
      throw error;
    }
  }

  list(gameId: string): Promise<AchievementRecord[]> {
    return this.uow.query<AchievementRecord>(`SELECT ${COLUMNS} FROM achievements WHERE game_id = $1 ORDER BY position`, [gameId]);
  }

  byKey(gameId: string, key: string): Promise<AchievementRecord | undefined> {
    return this.uow.one<AchievementRecord>(`SELECT ${COLUMNS} FROM achievements WHERE game_id = $1 AND key = $2`, [gameId, key]);
  }

  /**
   * Locks the definition for a change: an unlock's foreign-key check (FOR KEY SHARE) then waits for
   * us, and one already inserted is seen by the check that follows.
   */
  byKeyForUpdate(gameId: string, key: string): Promise<AchievementRecord | undefined> {
    return this.uow.one<AchievementRecord>(`SELECT ${COLUMNS} FROM achievements WHERE game_id = $1 AND key = $2 FOR UPDATE`, [gameId, key]);
  }

  async hasUnlocks(achievementId: string): Promise<boolean> {
    return (await this.uow.query('SELECT 1 FROM achievement_unlocks WHERE achievement_id = $1 LIMIT 1', [achievementId])).length > 0;
  }

  async update(
    achievementId: string,
    patch: { key?: string; name?: string; description?: string; iconKey?: string; secret?: boolean },
  ): Promise<AchievementRecord> {
    try {
      return (await this.uow.one<AchievementRecord>(
        `UPDATE achievements SET key = coalesce($2, key), name = coalesce($3, name), description = coalesce($4, description),
                icon_key = coalesce($5, icon_key), secret = coalesce($6, secret), updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [achievementId, patch.key ?? null, patch.name ?? null, patch.description ?? null, patch.iconKey ?? null, patch.secret ?? null],
      ))!;
    } catch (error) {
      if (isUniqueViolation(error, 'achievements_game_key_key')) throw new AchievementKeyTakenError(patch.key!);
      throw error;
    }
  }

  async retire(achievementId: string): Promise<AchievementRecord> {
    return (await this.uow.one<AchievementRecord>(
      `UPDATE achievements SET status = 'retired', updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [achievementId],
    ))!;
  }
}
