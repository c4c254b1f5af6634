import { declare } from '../../registry/declarations';

/** What the payouts module adds to the app's tables (src/registry/declarations.ts). */
export const PAYOUTS = declare({
  auditActions: {
    'payout.run': 'payout_run',
    'payout.mark_paid': 'payout',
    'payout.fail': 'payout',
  },
});

type Payouts = typeof PAYOUTS;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    payouts: Payouts;
  }
}
