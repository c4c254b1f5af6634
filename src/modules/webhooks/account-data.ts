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
