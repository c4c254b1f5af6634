import { Injectable, OnModuleInit } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { Metrics } from '../../observability/metrics';

/**
 * arcade_webhook_oldest_pending_seconds (CONTRACT §23): the age of the oldest delivery still
 * pending to an endpoint that is enabled (a disabled or deleted endpoint's deliveries wait for
 * nobody). Read when Prometheus scrapes, one statement on the partial index
 * webhook_deliveries_pending_idx (created_at WHERE status = 'pending'): the pending deliveries only,
 * oldest first, however long the delivery log grows.
 */
const OLDEST_PENDING_SQL = `
  SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(d.created_at)), 0)::float8 AS seconds
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
   WHERE d.status = 'pending' AND e.enabled AND e.deleted_at IS NULL`;

@Injectable()
export class WebhookMetrics implements OnModuleInit {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    if (!this.metrics.enabled) return;
    this.metrics.readOldestPendingWebhook(async () => (await this.uow.one<{ seconds: number }>(OLDEST_PENDING_SQL))!.seconds);
  }
}
