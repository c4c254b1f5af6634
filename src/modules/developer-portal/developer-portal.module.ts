import { Global, Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
import { AchievementDefinitionsService } from './achievement-definitions.service';
import { AchievementRepository } from './achievement.repository';
import { AchievementsController } from './achievements.controller';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { DeveloperRepository } from './developer.repository';
import { DeveloperPagesController } from './developer-pages.controller';
import { DevelopersController } from './developers.controller';
import { DevelopersService } from './developers.service';
import { GameRepository } from './game.repository';
import { GamesController } from './games.controller';
import { GamesService } from './games.service';

/** Developers, games, versions, achievement definitions, API keys. Global: `@ApiKeyAuth()` works in any module. */
@Global()
@Module({
  imports: [WalletModule],
  controllers: [DevelopersController, GamesController, AchievementsController, ApiKeysController, DeveloperPagesController],
  providers: [
    DeveloperRepository,
    GameRepository,
    AchievementRepository,
    ApiKeyRepository,
    DevelopersService,
    GamesService,
    AchievementDefinitionsService,
    ApiKeysService,
    ApiKeyGuard,
  ],
  exports: [GamesService, DevelopersService, AchievementDefinitionsService, ApiKeysService, ApiKeyGuard],
})
export class DeveloperPortalModule {}
