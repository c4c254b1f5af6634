import { Module } from '@nestjs/common';
import { Declares } from '../../registry/declarations';
import { MailModule } from '../mail';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookSender } from './webhook-sender';
import { WebhookWorker } from './webhook-worker';
import { WebhookMetrics } from './webhook-metrics';
import { JobRunnersRepository } from './job-runners.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhookPagesController } from './webhook-pages.controller';
import { WEBHOOKS } from './webhooks.declarations';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Developer webhooks (CONTRACT §21): endpoints, the outbox other modules write events to, and delivery. */
@Declares(WEBHOOKS)
@Module({
  imports: [MailModule],
  controllers: [WebhooksController, WebhookPagesController],
  providers: [WebhooksRepository, JobRunnersRepository, WebhooksService, WebhookOutbox, WebhookSender, WebhookWorker, WebhookMetrics],
  exports: [WebhooksService, WebhookOutbox],
})
export class WebhooksModule {}
