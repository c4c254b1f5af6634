import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { InvalidRequestError, NotFoundError } from '../../errors/app-error';
import { decodeCursor, pageOf } from '../../http/keyset-cursor';
import { UnitOfWork } from '../../database/unit-of-work';
import { newWebhookSecret, WEBHOOK_ENDPOINT_LIMIT, WEBHOOK_EVENT_TYPES, WEBHOOK_ROTATION_OVERLAP_MS, WebhookEventType, webhookUrlProblem } from './webhook.rules';
import { WebhookLimitReachedError } from './webhooks.errors';
import { DeliveryRow, EndpointRow, WebhooksRepository } from './webhooks.repository';

export interface WebhookView {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  createdAt: Date;
}

export type DeliveryView = Omit<DeliveryRow, 'createdKey'>;

/**
 * A developer's webhook endpoints and their delivery logs (CONTRACT §21). Events are written by
 * the changes themselves (WebhookOutbox) and delivered by WebhookWorker.
 */
@Injectable()
export class WebhooksService {
  private readonly allowPrivate: boolean;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhooksRepository,
  ) {
    this.allowPrivate = config.webhooks.allowPrivate;
  }

  create(developerId: string, input: { url: string; events?: string[]; description?: string | null }): Promise<WebhookView & { secret: string }> {
    this.checkUrl(input.url);
    const secret = newWebhookSecret();
    return this.uow.run(async () => {
      const row = await this.endpoints.insertEndpoint(
        { developerId, url: input.url, events: ordered(input.events ?? [...WEBHOOK_EVENT_TYPES]), description: input.description ?? null, secret },
        WEBHOOK_ENDPOINT_LIMIT,
      );
      if (row === 'limit') throw new WebhookLimitReachedError();
      return { ...view(row), secret };
    });
  }

  async list(developerId: string): Promise<{ webhooks: WebhookView[] }> {
    return { webhooks: (await this.endpoints.listEndpoints(developerId)).map(view) };
  }

  async get(developerId: string, webhookId: string): Promise<WebhookView> {
    return view(await this.require(developerId, webhookId));
  }

  update(developerId: string, webhookId: string, change: { url?: string; events?: string[]; description?: string | null; enabled?: boolean }): Promise<WebhookView> {
    if (change.url !== undefined) this.checkUrl(change.url);
    return this.uow.run(async () => {
      const before = await this.require(developerId, webhookId, true);
      const after = await this.endpoints.updateEndpoint(before.id, { ...change, events: change.events && ordered(change.events) });
      // Re-enabled: its pending deliveries resume (CONTRACT §21).
      if (!before.enabled && after.enabled) await this.endpoints.requeuePending(after.id);
      return view(after);
    });
  }

  remove(developerId: string, webhookId: string): Promise<void> {
    return this.uow.run(async () => {
      const endpoint = await this.require(developerId, webhookId, true);
      await this.endpoints.deleteEndpoint(endpoint.id);
    });
  }

  rotateSecret(developerId: string, webhookId: string): Promise<{ secret: string }> {
    const secret = newWebhookSecret();
    return this.uow.run(async () => {
      const endpoint = await this.require(developerId, webhookId, true);
      await this.endpoints.rotateSecret(endpoint.id, secret, WEBHOOK_ROTATION_OVERLAP_MS / 1000);
      return { secret };
    });
  }

  /** A `ping` to that endpoint alone, whatever its events and state. */
  sendTest(developerId: string, webhookId: string): Promise<{ eventId: string }> {
    return this.uow.run(async () => {
      const endpoint = await this.require(developerId, webhookId);
      return { eventId: await this.endpoints.insertPing(developerId, endpoint.id) };
    });
  }

  async deliveries(developerId: string, webhookId: string, options: { limit: number; cursor?: string }): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
    const after = options.cursor === undefined ? null : decodeCursor(options.cursor, ['timestamp', 'uuid'] as const);
    const endpoint = await this.require(developerId, webhookId);
    const rows = await this.endpoints.deliveries(endpoint.id, after && { createdKey: after[0], id: after[1] }, options.limit + 1);
    const page = pageOf(rows, options.limit, (row) => [row.createdKey, row.deliveryId]);
    return { deliveries: page.rows.map(({ createdKey: _key, ...delivery }) => delivery), nextCursor: page.nextCursor };
  }

  /** One more attempt now, whatever the delivery's status. */
  retry(developerId: string, webhookId: string, deliveryId: string): Promise<{ deliveryId: string }> {
    return this.uow.run(async () => {
      const endpoint = await this.require(developerId, webhookId);
      const delivery = await this.endpoints.delivery(endpoint.id, deliveryId);
      if (!delivery) throw new NotFoundError('No such delivery for this endpoint.');
      await this.endpoints.queueRetry(delivery.id);
      return { deliveryId: delivery.id };
    });
  }

  private async require(developerId: string, webhookId: string, lock = false): Promise<EndpointRow> {
    const row = await this.endpoints.endpoint(developerId, webhookId, { lock });
    if (!row) throw new NotFoundError('No such webhook endpoint.');
    return row;
  }

  private checkUrl(url: string): void {
    const problem = webhookUrlProblem(url, this.allowPrivate);
    if (problem) {
      const words = `URL: ${problem}.`;
      throw new InvalidRequestError(words, [{ field: 'url', problems: [words] }]);
    }
  }
}

/** The contract's order, whatever order they came in. */
function ordered(events: readonly string[]): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}

function view(row: EndpointRow): WebhookView {
  return { webhookId: row.id, url: row.url, events: ordered(row.events), description: row.description, enabled: row.enabled, createdAt: row.createdAt };
}
