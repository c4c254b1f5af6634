import { Module } from '@nestjs/common';
import { DeveloperPortalModule } from '../developer-portal';
import { IdentityModule } from '../identity';
import { IdempotencyModule } from '../idempotency';
import { RateLimitsModule } from '../rate-limits';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlaySession } from './play-session.entity';
import { WalletModule } from '../wallet';
import { WebhooksModule } from '../webhooks';
import { DeveloperApiController } from './developer-api.controller';
import { InsertCoinService } from './insert-coin.service';
import { PlayActionService } from './play-action.service';
import { PlaySessionRepository } from './play-session.repository';
import { PlaySessionsController } from './play-sessions.controller';
import { PlaySessionsService } from './play-sessions.service';
import { PlayerRefService } from './player-ref.service';
import { Declares } from '../../registry/declarations';
import { PLAY_SESSIONS } from './play-sessions.declarations';

@Declares(PLAY_SESSIONS)
@Module({
  imports: [TypeOrmModule.forFeature([PlaySession]), WalletModule, DeveloperPortalModule, IdempotencyModule, RateLimitsModule, IdentityModule, WebhooksModule],
  controllers: [PlaySessionsController, DeveloperApiController],
  providers: [PlaySessionRepository, PlayerRefService, PlaySessionsService, PlayActionService, InsertCoinService],
  exports: [PlaySessionsService, PlayActionService, PlayerRefService],
})
export class PlaySessionsModule {}
