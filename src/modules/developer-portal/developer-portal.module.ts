import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { WalletModule } from '../wallet';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Developer } from './developer.entity';
import { Game } from './game.entity';
import { GameThumbnail } from './game-thumbnail.entity';
import { GameVersion } from './game-version.entity';
import { Achievement } from './achievement.entity';
import { ApiKey } from './api-key.entity';
import { AchievementDefinitionsService } from './achievement-definitions.service';
import { AchievementRepository } from './achievement.repository';
import { AchievementDefinitionsController } from './achievement-definitions.controller';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { DeveloperRepository } from './developer.repository';
import { DeveloperPagesController } from './developer-pages.controller';
import { DevelopersController } from './developers.controller';
import { DevelopersService } from './developers.service';
import { GameRepository } from './game.repository';
import { GameThumbnailRepository } from './game-thumbnail.repository';
import { GameMediaController, GameThumbnailsController } from './game-thumbnails.controller';
import { GameThumbnailsService } from './game-thumbnails.service';
import { GamesController } from './games.controller';
import { GamesService } from './games.service';
import { Declares } from '../../registry/declarations';
import { DEVELOPER_PORTAL } from './developer-portal.declarations';

/**
 * Developers, games, versions, achievement definitions, API keys. `@ApiKeyAuth()` works in any
 * module: the global AuthGuard finds ApiKeyAuthenticator app-wide.
 */
@Declares(DEVELOPER_PORTAL)
@Module({
  imports: [TypeOrmModule.forFeature([Developer, Game, GameThumbnail, GameVersion, Achievement, ApiKey]), AuditModule, WalletModule],
  controllers: [DevelopersController, GamesController, GameThumbnailsController, GameMediaController, AchievementDefinitionsController, ApiKeysController, DeveloperPagesController],
  providers: [
    DeveloperRepository,
    GameRepository,
    GameThumbnailRepository,
    AchievementRepository,
    ApiKeyRepository,
    ApiKeyCache,
    DevelopersService,
    GamesService,
    GameThumbnailsService,
    AchievementDefinitionsService,
    ApiKeysService,
    ApiKeyAuthenticator,
  ],
  exports: [GamesService, GameThumbnailsService, DevelopersService, AchievementDefinitionsService, ApiKeysService],
})
export class DeveloperPortalModule {}
