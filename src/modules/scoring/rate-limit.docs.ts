/** OpenAPI text for the configurable limits of the scoring endpoints (CONTRACT §12). */
export const SCORE_LIMITS_DOC =
  'Rate limited per play session (`RATE_LIMIT_SCORE_PER_SESSION`, default 30 per 60 s) and per player ' +
  '(`RATE_LIMIT_SCORE_PER_PLAYER`, default 120 per 60 s); a replay is never limited.';

export const INITIALS_LIMITS_DOC = 'Rate limited per player (`RATE_LIMIT_INITIALS_PER_PLAYER`, default 30 per 60 s).';

export const DEVELOPER_LIMITS_DOC = 'Rate limited per API key (`RATE_LIMIT_DEVELOPER_PER_KEY`, default 600 per 60 s); a replay is never limited.';

export const RATE_LIMITED_DOC =
  'RATE_LIMITED: too many requests; `Retry-After` header (whole seconds, at least 1) and `retryAfterMs` in the body';

export const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait (integer, at least 1)', schema: { type: 'integer', minimum: 1 } },
};
