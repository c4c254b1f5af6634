import { millsToUsd } from '../wallet';

/** A payout as `GET /api/portal/payouts` answers it (CONTRACT §22); `method` the payout method at the time of the run. */
export interface PayoutView {
  payoutId: string;
  amountUsd: string;
  status: 'pending' | 'paid' | 'failed';
  method: { kind: string; accountId?: string };
  reference: string | null;
  createdAt: Date;
  paidAt: Date | null;
  failureReason: string | null;
}

export interface PayoutRow {
  id: string;
  amount_mills: string;
  status: PayoutView['status'];
  method_kind: string;
  method_account_id: string | null;
  reference: string | null;
  created_at: Date;
  paid_at: Date | null;
  failure_reason: string | null;
}

export const PAYOUT_COLUMNS = 'id, amount_mills::text AS amount_mills, status, method_kind, method_account_id, reference, created_at, paid_at, failure_reason';

export function payoutView(row: PayoutRow): PayoutView {
  return {
    payoutId: row.id,
    amountUsd: millsToUsd(row.amount_mills),
    status: row.status,
    method: row.method_account_id === null ? { kind: row.method_kind } : { kind: row.method_kind, accountId: row.method_account_id },
    reference: row.reference,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    failureReason: row.failure_reason,
  };
}
