import type { UnitOfWork } from '../../database/unit-of-work';

/**
 * Account erasure (CONTRACT §20): an erased developer's webhook endpoints are deleted as their owner
 * deleting them would (nothing more is signed or sent to them; pending deliveries stop, the log
 * stays for the books). In the erasure's transaction; answers how many there were.
 */
export async function deleteWebhooksOfErasedDeveloper(uow: UnitOfWork, developerId: string): Promise<number> {
  uow.requireTransaction();
  const rows = await uow.query<{ id: string }>('UPDATE webhook_endpoints SET deleted_at = now(), enabled = false WHERE developer_id = $1 AND deleted_at IS NULL RETURNING id', [developerId]);
  return rows.length;
}

/** A webhook endpoint as a person's data export shows it (CONTRACT §20): never its signing secrets. */
export interface WebhookExport {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  createdAt: Date;
  lastSuccessAt: Date | null;
  deletedAt: Date | null;
}

/** The export's webhook endpoints of a developer, deleted ones included, oldest first. */
export function webhooksExport(uow: UnitOfWork, developerId: string): Promise<WebhookExport[]> {
  return uow.query<WebhookExport>(
    `SELECT id, url, events, description, enabled, created_at AS "createdAt", last_success_at AS "lastSuccessAt", deleted_at AS "deletedAt"
       FROM webhook_endpoints WHERE developer_id = $1 ORDER BY created_at, id`,
    [developerId],
  );
}
