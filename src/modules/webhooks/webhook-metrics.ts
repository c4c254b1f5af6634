import { Injectable, OnModuleInit } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { Metrics } from '../../observability/metrics';

/**
 * arcade_webhook_oldest_pending_seconds (CONTRACT §23): how long the longest-waiting delivery that
 * is due (pending, its next attempt's time passed, to an enabled endpoint) has waited since it fell
 * due: 0 while the workers keep up. A delivery waiting for its next retry is not due, so a
 * developer's failing endpoint (retried for 3 days) does not page the operator; workers that stop
 * or fall behind do. Read when Prometheus scrapes, one statement on the partial index
 * webhook_deliveries_pending_idx (next_attempt_at WHERE status = 'pending'): the pending deliveries
 * only, earliest due first, however long the delivery log grows.
 */
const OLDEST_PENDING_SQL = `
  SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(d.next_attempt_at)), 0)::float8 AS seconds
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
   WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND e.enabled AND e.deleted_at IS NULL`;
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
