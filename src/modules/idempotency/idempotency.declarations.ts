import { declare } from '../../registry/declarations';

/** What the idempotency module adds to the app's tables (src/registry/declarations.ts). */
export const IDEMPOTENCY = declare({
  errors: { IDEMPOTENCY_KEY_CONFLICT: 409 },
});

type Idempotency = typeof IDEMPOTENCY;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    idempotency: Idempotency;
  }
}
