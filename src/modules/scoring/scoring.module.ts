import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Score } from './score.entity';
import { AuditModule } from '../audit';
import { WebhooksModule } from '../webhooks';
import { DeveloperPortalModule } from '../developer-portal';
import { IdempotencyModule } from '../idempotency';
import { IdentityModule } from '../identity';
import { PlaySessionsModule } from '../play-sessions';
import { RateLimitsModule } from '../rate-limits';
import { LeaderboardCacheMiddleware } from './leaderboard-cache.middleware';
import { LeaderboardController, MyBestController } from './leaderboard.controller';
import { LeaderboardService } from './leaderboard.service';
import { ScoreInitialsService } from './score-initials.service';
import { ScoreModerationService } from './score-moderation.service';
import { MyScoresController, ScoringController } from './scoring.controller';
import { ScoringRepository } from './scoring.repository';
import { SubmitScoreService } from './submit-score.service';
import { TrustedScoreController } from './trusted-score.controller';
import { Declares } from '../../registry/declarations';
import { SCORING } from './scoring.declarations';

/** Scores (player and trusted), high-score initials and the public leaderboards. */
@Declares(SCORING)
@Module({
  imports: [TypeOrmModule.forFeature([Score]), PlaySessionsModule, DeveloperPortalModule, IdentityModule, IdempotencyModule, RateLimitsModule, AuditModule, WebhooksModule],
  controllers: [ScoringController, MyScoresController, LeaderboardController, MyBestController, TrustedScoreController],
  providers: [ScoringRepository, SubmitScoreService, ScoreInitialsService, LeaderboardService, ScoreModerationService],
  exports: [LeaderboardService, ScoreModerationService],
})
export class ScoringModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(LeaderboardCacheMiddleware).forRoutes({ path: 'api/games/:slug/scores', method: RequestMethod.GET });
  }
}
