import { declare } from '../../registry/declarations';

/** What developer webhooks add to the app's tables (src/registry/declarations.ts). */
export const WEBHOOKS = declare({
  errors: {
    /** A sixth endpoint (CONTRACT §21: at most 5 per developer, disabled ones included). */
    WEBHOOK_LIMIT_REACHED: 409,
  },
});

type Webhooks = typeof WEBHOOKS;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    webhooks: Webhooks;
  }
}
