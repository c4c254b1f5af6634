import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Page, PageNotFound } from './page-auth';

/**
 * Unknown paths under the page areas (and /admin until it is built) answer the HTML 404 page (CONTRACT §17.1), after the
 * sign-in redirect for a signed-out visitor; other unknown paths answer the JSON 404 of §13.
 * Express tries routes in registration order, so this module is imported after every module
 * with pages (app.module.ts keeps it last).
 */
@ApiExcludeController()
@Controller()
class PageFallbackController {
  @Get(['me/*rest', 'developer/*rest', 'admin', 'admin/*rest', 'checkout', 'checkout/*rest'])
  @Page('signed-in', { summary: 'Unknown page' })
  notFound(): never {
    throw new PageNotFound();
  }
}

@Module({ controllers: [PageFallbackController] })
export class PageFallbackModule {}
