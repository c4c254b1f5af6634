import { afterCommit, configured, declare, everyInstance } from '../../registry/declarations';

/** What the developer portal adds to the app's tables (src/registry/declarations.ts). */
export const DEVELOPER_PORTAL = declare({
  errors: {
    LIVE_KEY_REQUIRED: 403,
    SLUG_TAKEN: 409,
    VERSION_NOT_APPROVED: 409,
    GAME_SUSPENDED: 409,
    ACHIEVEMENT_LIMIT_REACHED: 409,
    ACHIEVEMENT_KEY_TAKEN: 409,
    ACHIEVEMENT_KEY_LOCKED: 409,
  },
  auditActions: {
    'version.add': 'version',
    'version.approve': 'version',
    'version.reject': 'version',
    'game.publish': 'game',
    'game.unpublish': 'game',
    'game.suspend': 'game',
    'game.unsuspend': 'game',
    'key.create': 'key',
    'key.revoke': 'key',
  },
  limits: {
    /** Every developer-API call per API key (play sessions, verification, trusted scores). */
    'developer-per-key': { rule: configured('RATE_LIMIT_DEVELOPER_PER_KEY', { limit: 600, windowMs: 60_000 }) },
  },
  events: {
    /** A game was published, unpublished, suspended or unsuspended (in-process caches drop it). */
    'game.status-changed': afterCommit<{ gameId: string }>(),
    /** An API key was revoked: every instance drops it from its key cache. */
    'api-key': everyInstance<{ keyId: string }>(),
  },
});

type DeveloperPortal = typeof DEVELOPER_PORTAL;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    developerPortal: DeveloperPortal;
  }
}
