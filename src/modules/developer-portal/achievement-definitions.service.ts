import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { AchievementRecord, AchievementRepository } from './achievement.repository';
import { AchievementKeyLockedError, AchievementKeyTakenError, AchievementLimitReachedError } from './developer-portal.errors';
import { GamesService } from './games.service';

/** Spec §2.7. */
export const ACHIEVEMENTS_PER_GAME = 50;
export const ACHIEVEMENT_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,47}$/;
export { ICON_KEYS, type IconKey } from '../../http/pages/icons';

export interface AchievementDefinitionView {
  key: string;
  name: string;
  description: string;
  iconKey: string;
  secret: boolean;
  status: 'active' | 'retired';
  createdAt: Date;
  /** Distinct players who unlocked it outside test mode (CONTRACT §17). */
  unlockCount: number;
}

export function toDefinitionView(a: AchievementRecord, unlockCount: number): AchievementDefinitionView {
  return { key: a.key, name: a.name, description: a.description, iconKey: a.iconKey, secret: a.secret, status: a.status, createdAt: a.createdAt, unlockCount };
}

type Fields = { key: string; name: string; description: string; iconKey: string; secret: boolean };

/** The developer's achievement definitions: at most 50 per game (retired included), keys locked once unlocked. */
@Injectable()
export class AchievementDefinitionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly games: GamesService,
    private readonly achievements: AchievementRepository,
  ) {}

  async list(developerId: string, gameId: string): Promise<AchievementDefinitionView[]> {
    await this.games.ownedGame(developerId, gameId);
    const [definitions, counts] = await Promise.all([this.achievements.list(gameId), this.achievements.unlockCounts(gameId)]);
    return definitions.map((a) => toDefinitionView(a, counts.get(a.id) ?? 0));
  }

  create(developerId: string, gameId: string, input: Fields): Promise<AchievementDefinitionView> {
    return this.uow.run(async () => {
      // The game row lock serialises definitions of one game, so the count and position hold.
      const game = await this.games.ownedGame(developerId, gameId, true);
      const count = await this.achievements.count(game.id);
      if (count >= ACHIEVEMENTS_PER_GAME) throw new AchievementLimitReachedError(ACHIEVEMENTS_PER_GAME);
      if (await this.achievements.byKey(game.id, input.key)) throw new AchievementKeyTakenError(input.key);
      return toDefinitionView(await this.achievements.insert(game.id, count + 1, input), 0);
    });
  }

  update(developerId: string, gameId: string, key: string, patch: Partial<Fields>): Promise<AchievementDefinitionView> {
    return this.uow.run(async () => {
      const game = await this.games.ownedGame(developerId, gameId, true);
      const current = await this.owned(game.id, key);
      if (patch.key !== undefined && patch.key !== current.key) {
        if (await this.achievements.hasUnlocks(current.id)) throw new AchievementKeyLockedError();
        if (await this.achievements.byKey(game.id, patch.key)) throw new AchievementKeyTakenError(patch.key);
      }
      return toDefinitionView(await this.achievements.update(current.id, patch), await this.achievements.unlockCount(current.id));
    });
  }

  /** Retired achievements can no longer be unlocked; they keep their key and still count toward the 50. */
  retire(developerId: string, gameId: string, key: string): Promise<AchievementDefinitionView> {
    return this.uow.run(async () => {
      const game = await this.games.ownedGame(developerId, gameId, true);
      const current = await this.owned(game.id, key);
      const retired = current.status === 'retired' ? current : await this.achievements.retire(current.id);
      return toDefinitionView(retired, await this.achievements.unlockCount(current.id));
    });
  }

  private async owned(gameId: string, key: string): Promise<AchievementRecord> {
    const achievement = await this.achievements.byKeyForUpdate(gameId, key);
    if (!achievement) throw new NotFoundError('No such achievement.');
    return achievement;
  }
}
