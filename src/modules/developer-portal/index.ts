/** The developer-portal module's public entry (developers, games, versions, achievement definitions and API keys): other modules import only what is here (docs/architecture.md). */
export { DeveloperPortalModule } from './developer-portal.module';
export { AchievementDefinitionsService } from './achievement-definitions.service';
export { DevelopersService } from './developers.service';
export { ApiKeysService } from './api-keys.service';
export { developerExport, developerForErasure, eraseDeveloperName } from './account-data';
export type { DeveloperExport } from './account-data';
export { GamesService } from './games.service';
export { GameThumbnailsService } from './game-thumbnails.service';
export type { AdminGameView, GameStatus, GameView, ReviewView, VersionView } from './games.service';
export { ApiKeyAuth, CurrentApiKey } from './api-key.decorators';
export type { ApiKeyContext } from './api-key.decorators';
export { GameDto, RejectVersionDto, VersionDto } from './developer-portal.dto';
export { thumbnailUrlOf } from './game-thumbnail.rules';
export { THUMBNAIL_UPLOAD_PATH, thumbnailBody } from './game-thumbnail.body';
export { DeveloperLayout } from './developer-layout';
export type { DeveloperSection } from './developer-layout';
