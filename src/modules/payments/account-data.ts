import type { UnitOfWork } from '../../database/unit-of-work';

/** A purchase as a person's data export shows it (CONTRACT §20): no checkout URL or provider reference. */
export interface PurchaseExport {
  id: string;
  packId: string;
  coins: number;
  priceMills: number;
  provider: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The export's `purchases` part (CONTRACT §20): every purchase of the account, oldest first. */
export function purchasesExport(uow: UnitOfWork, accountId: string): Promise<PurchaseExport[]> {
  return uow.query<PurchaseExport>(
    `SELECT id, pack_id AS "packId", coins, price_mills::float8 AS "priceMills", provider, status, created_at AS "createdAt", updated_at AS "updatedAt"
       FROM purchases WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
}
