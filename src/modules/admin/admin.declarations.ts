import { declare } from '../../registry/declarations';

/** What the admin module adds to the app's tables (src/registry/declarations.ts). */
export const ADMIN = declare({
  auditActions: {
    'wallet.freeze': 'user',
    'wallet.unfreeze': 'user',
    'insertion.void': 'insertion',
  },
});

type Admin = typeof ADMIN;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    admin: Admin;
  }
}
