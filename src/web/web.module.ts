import { Module } from '@nestjs/common';
import { PagesController } from './pages.controller';
import { StaticController } from './static.controller';
import { WebAssetsService } from './web-assets.service';

/** The browser side: SDK, host page, catalogue and game pages, demo games. */
@Module({
  controllers: [StaticController, PagesController],
  providers: [WebAssetsService],
})
export class WebModule {}
