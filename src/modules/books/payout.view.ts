import { millsToUsd } from '../wallet';

/**
 * How a payout reads in every answer that shows one (CONTRACT §22): the payouts list, the admin's
 * payouts and a month's statement. The one home of that shape: the payouts module (above the books
 * in the import graph, it shows a statement on its page) builds its answers with it too.
 */
export type PayoutMethodKind = 'sandbox' | 'stripe';
export type PayoutStatus = 'pending' | 'paid' | 'failed';

/** A payout method as the API shows it: `{ kind: "sandbox" }` or `{ kind: "stripe", accountId }`. */
export interface PayoutMethodView {
  kind: PayoutMethodKind;
  accountId?: string;
}

/** A payout as `GET /api/portal/payouts` lists it; `method` the payout method at the time of the run. */
export interface PayoutView {
  payoutId: string;
  amountUsd: string;
  status: PayoutStatus;
  method: PayoutMethodView;
  reference: string | null;
  createdAt: Date;
  paidAt: Date | null;
  failureReason: string | null;
}

/** The stored fields a payout's view is made of (the payouts repository's rows carry them, and more). */
export interface PayoutFields {
  id: string;
  amountMills: number | string;
  status: PayoutStatus;
  methodKind: PayoutMethodKind;
  methodAccountId: string | null;
  reference: string | null;
  createdAt: Date;
  paidAt: Date | null;
  failureReason: string | null;
}

/** The columns of `payouts` as `PayoutFields` names them. */
export const PAYOUT_COLUMNS = `id, amount_mills::text AS "amountMills", status, method_kind AS "methodKind", method_account_id AS "methodAccountId",
       reference, created_at AS "createdAt", paid_at AS "paidAt", failure_reason AS "failureReason"`;

export function methodView(kind: PayoutMethodKind, accountId: string | null): PayoutMethodView {
  return kind === 'stripe' && accountId ? { kind, accountId } : { kind };
}

export function payoutView(row: PayoutFields): PayoutView {
  return {
    payoutId: row.id,
    amountUsd: millsToUsd(row.amountMills),
    status: row.status,
    method: methodView(row.methodKind, row.methodAccountId),
    reference: row.reference,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    failureReason: row.failureReason,
  };
}
