import { WebhooksModule } from '../webhooks';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AchievementUnlock } from './achievement-unlock.entity';
import { DeveloperPortalModule } from '../developer-portal';
import { IdentityModule } from '../identity';
import { PlaySessionsModule } from '../play-sessions';
import { AchievementsController } from './achievements.controller';
import { AchievementsRepository } from './achievements.repository';
import { AchievementsService } from './achievements.service';
import { UnlockAchievementService } from './unlock-achievement.service';
import { Declares } from '../../registry/declarations';
import { ACHIEVEMENTS } from './achievements.declarations';

/** Unlocks, XP and the rewards a first unlock earns. */
@Declares(ACHIEVEMENTS)
@Module({
  imports: [TypeOrmModule.forFeature([AchievementUnlock]), PlaySessionsModule, DeveloperPortalModule, IdentityModule, WebhooksModule],
  controllers: [AchievementsController],
  providers: [AchievementsRepository, UnlockAchievementService, AchievementsService],
  exports: [AchievementsService],
})
export class AchievementsModule {}
