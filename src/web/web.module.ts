import { Module } from '@nestjs/common';
import { PaymentsModule } from '../modules/payments';
import { AchievementsModule } from '../modules/achievements';
import { WalletModule } from '../modules/wallet';
import { DemoSeedService } from './demo-seed.service';
import { MePageController } from './me-page.controller';
import { PagesController } from './pages.controller';
import { StaticController } from './static.controller';
import { WebAssetsService } from './web-assets.service';

/** The browser side: SDK, host page, catalogue, game and profile pages, demo games, the demo world. */
@Module({
  imports: [WalletModule, AchievementsModule, PaymentsModule],
  controllers: [StaticController, PagesController, MePageController],
  providers: [WebAssetsService, DemoSeedService],
})
export class WebModule {}
