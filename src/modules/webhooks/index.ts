/** The webhooks module's public entry (developer webhooks, CONTRACT §21): other modules import only what is here (docs/architecture.md). */
export { WebhooksModule } from './webhooks.module';
export { WebhooksService } from './webhooks.service';
export type { DeliveryView, WebhookView } from './webhooks.service';
export { WebhookOutbox } from './webhook-outbox';
export type { OutboxEvent } from './webhook-outbox';
export { WEBHOOK_EVENT_TYPES } from './webhook.rules';
export type { WebhookEventType } from './webhook.rules';
export { deleteWebhooksOfErasedDeveloper, webhooksExport } from './account-data';
export type { WebhookExport } from './account-data';
