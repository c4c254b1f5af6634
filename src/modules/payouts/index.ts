/** The payouts module's public entry (balances, payout methods, payout runs and payouts, CONTRACT §22): other modules import only what is here (docs/architecture.md). */
export { PayoutsModule } from './payouts.module';
export { PayoutsService } from './payouts.service';
export type { BalanceView } from './payouts.service';
export type { PayoutRow } from './payouts.repository';
export { adminPayoutView, methodView, payoutView } from './payouts.views';
export type { AdminPayoutView, PayoutMethodView, PayoutView } from './payouts.views';
export { payoutsExport } from './account-data';
export type { PayoutsExport } from './account-data';
