import { Module } from '@nestjs/common';
import { WalletModule } from '../modules/wallet/wallet.module';
import { DemoSeedService } from './demo-seed.service';
import { PagesController } from './pages.controller';
import { StaticController } from './static.controller';
import { WebAssetsService } from './web-assets.service';

/** The browser side: SDK, host page, catalogue and game pages, demo games, the demo world. */
@Module({
  imports: [WalletModule],
  controllers: [StaticController, PagesController],
  providers: [WebAssetsService, DemoSeedService],
})
export class WebModule {}
