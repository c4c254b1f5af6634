import { millsToUsd } from '../wallet';
import type { PayoutRow } from './payouts.repository';
import type { PayoutMethodKind, PayoutStatus } from './payouts.rules';

/** A payout method as the API shows it: `{ kind: "sandbox" }` or `{ kind: "stripe", accountId }`. */
export interface PayoutMethodView {
  kind: PayoutMethodKind;
  accountId?: string;
}

/** A payout as `GET /api/portal/payouts` lists it (CONTRACT §22). */
export interface PayoutView {
  payoutId: string;
  amountUsd: string;
  status: PayoutStatus;
  /** The payout method at the time of the run. */
  method: PayoutMethodView;
  reference: string | null;
  createdAt: Date;
  paidAt: Date | null;
  failureReason: string | null;
}

/** The admin's view: the payout and whose it is. */
export interface AdminPayoutView extends PayoutView {
  developerId: string;
}

export function methodView(kind: PayoutMethodKind, accountId: string | null): PayoutMethodView {
  return kind === 'stripe' && accountId ? { kind, accountId } : { kind };
}

export function payoutView(row: PayoutRow): PayoutView {
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

export function adminPayoutView(row: PayoutRow): AdminPayoutView {
  return { ...payoutView(row), developerId: row.developerId };
}
