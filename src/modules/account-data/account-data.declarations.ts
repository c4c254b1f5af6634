import { configured, declare } from '../../registry/declarations';

/** What the account-data module adds to the app's tables (src/registry/declarations.ts). */
export const ACCOUNT_DATA = declare({
  auditActions: { 'user.erase': 'user' },
  limits: {
    /** Data exports per account (CONTRACT §20 GET /api/me/export): beyond it 429. */
    'export-per-account': { rule: configured('RATE_LIMIT_EXPORT_PER_ACCOUNT', { limit: 5, windowMs: 3600_000 }) },
  },
});

type AccountData = typeof ACCOUNT_DATA;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    accountData: AccountData;
  }
}
