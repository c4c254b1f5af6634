import { Injectable } from '@nestjs/common';
import { GamesService } from '../developer-portal';
import type { PlayerContext } from '../../http/account-auth';
import { PlayersService } from '../identity';
import { GameUnavailableError, PlayActionService, PlaySessionRecord } from '../play-sessions';
import { ACHIEVEMENT_XP, RewardItem, rewardsFor } from './achievement.rules';
import { AchievementNotFoundError } from './achievements.errors';
import { AchievementsRepository } from './achievements.repository';
import { WebhookOutbox } from '../webhooks';

export interface UnlockResult {
  achievement: { key: string; name: string; description: string; iconKey: string; secret: boolean };
  unlocked: boolean;
  newlyUnlocked: boolean;
  unlockedAt: string | null;
  testMode: boolean;
  rewards: RewardItem[];
}

/**
 * Unlocks an achievement for the player of a play session (spec §3.3, §4.9): the first unlock is
 * stored once and adds 25 XP once, however many arrive together; repeats return the original.
 * A play action without a key (PlayActionService.runUnkeyed: the play session checked once, test
 * mode, the session kept alive after).
 */
@Injectable()
export class UnlockAchievementService {
  constructor(
    private readonly play: PlayActionService,
    private readonly games: GamesService,
    private readonly players: PlayersService,
    private readonly unlocks: AchievementsRepository,
    private readonly webhooks: WebhookOutbox,
  ) {}

  unlock(player: Pick<PlayerContext, 'playerId' | 'isAdmin'>, playSessionId: string, key: string): Promise<UnlockResult> {
    const playerId = player.playerId;
    // CONTRACT §16.17: play session (404, 410; the play action), then game, then achievement, then first-or-repeat.
    return this.play.runUnkeyed<UnlockResult>(playerId, playSessionId, {
      // No unlock and no XP: the celebration alone, so the developer sees it in preview.
      test: async (session) => {
        const { definition, achievement } = await this.definition(session, player.isAdmin, key);
        return { achievement, unlocked: true, newlyUnlocked: true, unlockedAt: null, testMode: true, rewards: rewardsFor(definition, 0, 0) };
      },
      paid: async (session) => {
        const { definition, achievement } = await this.definition(session, player.isAdmin, key);
        const firstAt = await this.unlocks.insertUnlock(playerId, definition.id, session.id);
        if (firstAt) {
          const { xpBefore, xpAfter } = await this.players.addXp(playerId, ACHIEVEMENT_XP);
          // CONTRACT §21: the first unlock only (a repeat changes nothing and sends nothing).
          await this.webhooks.record({
            developerId: session.developerId,
            type: 'achievement.unlocked',
            data: { gameId: session.gameId, key: definition.key, playerRef: session.playerRef, unlockedAt: firstAt.toISOString() },
            occurredAt: firstAt,
          });
          return {
            achievement,
            unlocked: true,
            newlyUnlocked: true,
            unlockedAt: firstAt.toISOString(),
            testMode: false,
            rewards: rewardsFor(definition, xpBefore, xpAfter),
          };
        }
        const originalAt = await this.unlocks.unlockedAt(playerId, definition.id);
        if (!originalAt) throw new Error('An unlock that conflicted is missing.');
        return { achievement, unlocked: true, newlyUnlocked: false, unlockedAt: originalAt.toISOString(), testMode: false, rewards: [] };
      },
    });
  }

  /** The play session's game, playable (404 GAME_UNAVAILABLE), and its active achievement `key` (404 ACHIEVEMENT_NOT_FOUND). */
  private async definition(session: PlaySessionRecord, isAdmin: boolean, key: string) {
    const game = await this.games.findById(session.gameId);
    // A test-mode session plays an unpublished game by design; only suspension ends it (admins excepted).
    const playable = session.testMode ? game?.status !== 'suspended' || isAdmin : game?.status === 'published';
    if (!game || !playable) throw new GameUnavailableError();
    const definition = await this.games.findAchievement(game.id, key);
    if (!definition || definition.status !== 'active') throw new AchievementNotFoundError();
    const achievement = { key: definition.key, name: definition.name, description: definition.description, iconKey: definition.iconKey, secret: definition.secret };
    return { definition, achievement };
  }
}
