import { configured, declare } from '../../registry/declarations';

/** What the scoring module adds to the app's tables (src/registry/declarations.ts). */
export const SCORING = declare({
  errors: {
    SCORE_NOT_FOUND: 404,
    COIN_REQUIRED: 409,
    INSERTION_ALREADY_SCORED: 409,
    INSERTION_VOIDED: 409,
    SCORE_OUT_OF_RANGE: 422,
  },
  auditActions: { 'score.remove': 'score' },
  limits: {
    'score-per-session': { rule: configured('RATE_LIMIT_SCORE_PER_SESSION', { limit: 30, windowMs: 60_000 }) },
    'score-per-player': { rule: configured('RATE_LIMIT_SCORE_PER_PLAYER', { limit: 120, windowMs: 60_000 }) },
    'initials-per-player': { rule: configured('RATE_LIMIT_INITIALS_PER_PLAYER', { limit: 30, windowMs: 60_000 }) },
  },
});

type Scoring = typeof SCORING;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    scoring: Scoring;
  }
}
