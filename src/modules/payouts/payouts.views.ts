import { payoutView, PayoutView } from '../books';
import type { PayoutRow } from './payouts.repository';

export { methodView, payoutView } from '../books';
export type { PayoutMethodView, PayoutView } from '../books';

/** The admin's view: the payout and whose it is. */
export interface AdminPayoutView extends PayoutView {
  developerId: string;
}

export function adminPayoutView(row: PayoutRow): AdminPayoutView {
  return { ...payoutView(row), developerId: row.developerId };
}
