import type { UnitOfWork } from '../../database/unit-of-work';

/** A developer's payout method and payouts as a person's data export shows them (CONTRACT §20), amounts in mills like the earnings'. */
export interface PayoutsExport {
  payoutMethod: { kind: string; accountId: string | null; updatedAt: Date } | null;
  payouts: {
    id: string;
    runId: string;
    amountMills: number;
    status: string;
    methodKind: string;
    methodAccountId: string | null;
    reference: string | null;
    failureReason: string | null;
    createdAt: Date;
    paidAt: Date | null;
    failedAt: Date | null;
  }[];
}

/** The export's payout method and payouts (oldest first) of a developer. */
export async function payoutsExport(uow: UnitOfWork, developerId: string): Promise<PayoutsExport> {
  const payoutMethod = await uow.one<NonNullable<PayoutsExport['payoutMethod']>>(
    'SELECT kind, account_id AS "accountId", updated_at AS "updatedAt" FROM payout_methods WHERE developer_id = $1',
    [developerId],
  );
  const payouts = await uow.query<PayoutsExport['payouts'][number]>(
    `SELECT id, run_id AS "runId", amount_mills::float8 AS "amountMills", status, method_kind AS "methodKind", method_account_id AS "methodAccountId",
            reference, failure_reason AS "failureReason", created_at AS "createdAt", paid_at AS "paidAt", failed_at AS "failedAt"
       FROM payouts WHERE developer_id = $1 ORDER BY created_at, id`,
    [developerId],
  );
  return { payoutMethod: payoutMethod ?? null, payouts };
}
