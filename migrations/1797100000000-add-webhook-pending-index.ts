import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pending webhook deliveries, earliest due first (arcade_webhook_oldest_pending_seconds,
 * CONTRACT §23, read at every Prometheus scrape): a partial index holds only the rows still
 * pending, so the read stays a few pages however long the delivery log grows.
 */
export class AddWebhookPendingIndex1797100000000 implements MigrationInterface {
  name = 'AddWebhookPendingIndex1797100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_deliveries_pending_idx');
  }
}
