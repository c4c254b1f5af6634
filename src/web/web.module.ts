import { Module } from '@nestjs/common';
import { AchievementsModule } from '../modules/achievements';
import { CatalogueModule } from '../modules/catalogue';
import { DeveloperPortalModule } from '../modules/developer-portal';
import { IdentityModule } from '../modules/identity';
import { PaymentsModule } from '../modules/payments';
import { WalletModule } from '../modules/wallet';
import { DemoSeedService } from './demo-seed.service';
import { MePageController } from './me-page.controller';
import { PagesController } from './pages.controller';
import { StaticController } from './static.controller';
import { WebAssetsService } from './web-assets.service';

/** The browser side: SDK, host page, catalogue, game and profile pages, demo games, the demo world. */
@Module({
  imports: [IdentityModule, DeveloperPortalModule, WalletModule, AchievementsModule, PaymentsModule, CatalogueModule],
  controllers: [StaticController, PagesController, MePageController],
  providers: [WebAssetsService, DemoSeedService],
})
export class WebModule {}
