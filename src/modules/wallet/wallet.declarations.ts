import { declare } from '../../registry/declarations';

/** What the wallet module adds to the app's tables (src/registry/declarations.ts). */
export const WALLET = declare({
  errors: { INSUFFICIENT_COINS: 402, WALLET_FROZEN: 403 },
  auditActions: { 'wallet.credit': 'user' },
});

type Wallet = typeof WALLET;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    wallet: Wallet;
  }
}
