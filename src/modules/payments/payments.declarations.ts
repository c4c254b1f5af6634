import { configured, declare } from '../../registry/declarations';

/** What the payments module adds to the app's tables (src/registry/declarations.ts). */
export const PAYMENTS = declare({
  errors: { INVALID_SIGNATURE: 400 },
  limits: {
    /** New purchases per player (CONTRACT §19.1). */
    'purchases-per-player': { rule: configured('RATE_LIMIT_PURCHASES_PER_PLAYER', { limit: 20, windowMs: 3600_000 }) },
  },
});

type Payments = typeof PAYMENTS;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    payments: Payments;
  }
}
