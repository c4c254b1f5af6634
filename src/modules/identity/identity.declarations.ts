import { configured, declare, everyInstance, inTransaction } from '../../registry/declarations';

/** What the identity module adds to the app's tables (src/registry/declarations.ts). */
export const IDENTITY = declare({
  errors: {
    INVALID_TOKEN: 400,
    INVALID_CODE: 400,
    EMAIL_NOT_VERIFIED: 403,
    ACCOUNT_NOT_LINKED: 403,
    ACCOUNT_BANNED: 403,
    WRONG_PASSWORD: 403,
    TWO_FACTOR_REQUIRED: 403,
    EMAIL_TAKEN: 409,
  },
  auditActions: {
    'user.verify_email': 'user',
    'user.ban': 'user',
    'user.unban': 'user',
  },
  limits: {
    'login-per-email': { rule: configured('RATE_LIMIT_LOGIN_PER_EMAIL', { limit: 10, windowMs: 15 * 60_000 }) },
    'login-per-address': { rule: configured('RATE_LIMIT_LOGIN_PER_ADDRESS', { limit: 50, windowMs: 15 * 60_000 }) },
    'signup-per-address': { rule: configured('RATE_LIMIT_SIGNUP_PER_ADDRESS', { limit: 30, windowMs: 3600_000 }) },
    /** Sign-ups for everyone together. */
    'signup-global': { rule: configured('RATE_LIMIT_SIGNUP_GLOBAL', { limit: 300, windowMs: 60_000 }), everyone: true },
    'mail-per-account': { rule: configured('RATE_LIMIT_MAIL_PER_ACCOUNT', { limit: 5, windowMs: 3600_000 }) },
    'mail-per-address': { rule: configured('RATE_LIMIT_MAIL_PER_ADDRESS', { limit: 30, windowMs: 3600_000 }) },
    'mail-global': { rule: configured('RATE_LIMIT_MAIL_GLOBAL', { limit: 1000, windowMs: 3600_000 }) },
    /** Password-reset mails per account (CONTRACT §20): beyond it the same 202 and no mail. */
    'reset-per-email': { rule: configured('RATE_LIMIT_RESET_PER_EMAIL', { limit: 5, windowMs: 3600_000 }) },
    /** Password-reset requests per client address (CONTRACT §20): beyond it 429. */
    'reset-per-address': { rule: configured('RATE_LIMIT_RESET_PER_ADDRESS', { limit: 20, windowMs: 3600_000 }) },
  },
  events: {
    /** A player profile was created for an account (sign-up, POST /api/me/player, demo world): its wallet opens with it. */
    'player.linked': inTransaction<{ accountId: string; playerId: string }>(),
    /** An account was banned: every instance stops accepting its API keys. */
    account: everyInstance<{ accountId: string }>(),
  },
});

type Identity = typeof IDENTITY;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    identity: Identity;
  }
}
