import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { AppError } from '../../errors/app-error';
import { sendPage } from '../../http/pages/layout';
import { CurrentDeveloperViewer, DeveloperViewer, Page, PageNotFound } from '../../http/pages/page-auth';
import { PAGE_LIMIT_DEFAULT } from '../../http/params';
import { WebhookDeliveriesPage } from './webhook-deliveries-page';
import { WebhooksPage } from './webhooks-page';
import { WebhooksService } from './webhooks.service';

/** The webhooks pages of the developer portal (CONTRACT §21, §17): they read through the service; their forms call /api/portal/webhooks. */
@ApiTags('developer portal')
@Controller('developer/webhooks')
export class WebhookPagesController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Page('developer', { summary: 'The webhooks page (HTML)', description: 'Adds endpoints (the secret shown once), lists them with Send test event, Rotate secret, Disable/Enable, Delete and their deliveries.' })
  async list(@CurrentDeveloperViewer() viewer: DeveloperViewer, @Res() res: Response): Promise<void> {
    const { webhooks } = await this.webhooks.list(viewer.developerId);
    sendPage(res, h(WebhooksPage, { viewer, webhooks }));
  }

  @Get(':webhookId')
  @Page('developer', { summary: 'An endpoint\'s deliveries (HTML)', description: 'The delivery log, newest first, with Retry on each. Another developer\'s or an unknown endpoint: the 404 page.' })
  @ApiParam({ name: 'webhookId', description: 'The endpoint id', schema: { type: 'string', maxLength: 64 } })
  @ApiQuery({ name: 'cursor', required: false, description: 'The page after this one (its "Older deliveries" link)', schema: { type: 'string', maxLength: 512 } })
  async deliveries(@CurrentDeveloperViewer() viewer: DeveloperViewer, @Param('webhookId') webhookId: string, @Query('cursor') cursor: unknown, @Res() res: Response): Promise<void> {
    if (webhookId.length > 64 || (cursor !== undefined && (typeof cursor !== 'string' || cursor.length > 512))) throw new PageNotFound();
    try {
      const webhook = await this.webhooks.get(viewer.developerId, webhookId);
      const page = await this.webhooks.deliveries(viewer.developerId, webhookId, { limit: PAGE_LIMIT_DEFAULT, cursor: cursor as string | undefined });
      sendPage(res, h(WebhookDeliveriesPage, { viewer, webhook, deliveries: page.deliveries, nextCursor: page.nextCursor }));
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_REQUEST')) throw new PageNotFound();
      throw error;
    }
  }
}
