/**
 * The in-page bridge between a game (the SDK) and the host page (spec §6, CONTRACT §14.1).
 * Shared by the SDK bundle, the host page bundle and the unit tests; no DOM or Node imports.
 */

export const SDK_VERSION = '1.1.0';

/** Spec §6.4 and §8: a bridge call with no answer resolves as TIMEOUT after 10 seconds. */
export const BRIDGE_TIMEOUT_MS = 10_000;

/** The fragment parameter through which the host page tells the game its own origin. */
export const HOST_ORIGIN_PARAM = 'arcadeHost';

export const MESSAGE_TYPES = ['init', 'insertCoin', 'unlockAchievement', 'submitScore'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export interface Envelope {
  __svc: 1;
  id: string;
  type: MessageType;
  payload: Record<string, unknown>;
}

export type Reply = { __svc: 1; id: string; ok: true; data: Record<string, unknown> } | { __svc: 1; id: string; ok: false; reason: string };

export const ACHIEVEMENT_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,47}$/;
export const MAX_SCORE = 9_007_199_254_740_991;
const MAX_ID_LENGTH = 64;

/** Reasons common to every call that reaches the host (spec §6.6). */
const SESSION_REASONS = ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'NOT_SIGNED_IN', 'EMAIL_NOT_VERIFIED', 'INVALID_REQUEST', 'TIMEOUT', 'ERROR'] as const;

/** The exact `reason` values each call may resolve with; anything else from a host becomes ERROR. */
export const REASONS: Record<MessageType, readonly string[]> = {
  init: [...SESSION_REASONS, 'GAME_UNAVAILABLE'],
  insertCoin: [...SESSION_REASONS, 'USER_ACTION_REQUIRED', 'INSUFFICIENT_COINS', 'RATE_LIMITED', 'BUSY'],
  unlockAchievement: [...SESSION_REASONS, 'INVALID_KEY', 'ACHIEVEMENT_NOT_FOUND', 'GAME_UNAVAILABLE'],
  submitScore: [...SESSION_REASONS, 'INVALID_SCORE', 'COIN_REQUIRED', 'INSERTION_ALREADY_SCORED', 'SCORE_OUT_OF_RANGE', 'RATE_LIMITED'],
};

export function isValidAchievementKey(key: unknown): key is string {
  return typeof key === 'string' && ACHIEVEMENT_KEY_PATTERN.test(key);
}

export function isValidScore(score: unknown): score is number {
  return typeof score === 'number' && Number.isSafeInteger(score) && score >= 0 && score <= MAX_SCORE;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What the host makes of a message from the game: a valid request, a request it must refuse
 * (answered with INVALID_REQUEST, never forwarded), or noise it ignores (no usable id).
 */
export type ParsedRequest =
  | { kind: 'request'; envelope: Envelope }
  | { kind: 'invalid'; id: string; type: MessageType | undefined }
  | { kind: 'ignore' };

export function parseRequest(data: unknown): ParsedRequest {
  if (!isPlainObject(data) || data.__svc !== 1) return { kind: 'ignore' };
  const id = data.id;
  if (typeof id !== 'string' || id.length < 1 || id.length > MAX_ID_LENGTH) return { kind: 'ignore' };
  const type = (MESSAGE_TYPES as readonly unknown[]).includes(data.type) ? (data.type as MessageType) : undefined;
  const payload = data.payload;
  if (!type || !isPlainObject(payload)) return { kind: 'invalid', id, type };
  const keys = Object.keys(payload);
  const only = (allowed: string[]) => keys.every((k) => allowed.includes(k));
  let valid: boolean;
  switch (type) {
    case 'init':
    case 'insertCoin':
      valid = keys.length === 0;
      break;
    case 'unlockAchievement':
      valid = only(['key']) && isValidAchievementKey(payload.key);
      break;
    case 'submitScore':
      valid = only(['score']) && isValidScore(payload.score);
      break;
  }
  return valid ? { kind: 'request', envelope: { __svc: 1, id, type, payload } } : { kind: 'invalid', id, type };
}

/**
 * The `reason` a game sees for an HTTP answer that was not a success (spec §6.6, CONTRACT §14.1).
 * `status` 0 means the request never got an answer (network failure).
 */
export function reasonForHttpError(type: MessageType, status: number, code: string | undefined): string {
  if (status === 0 || status >= 500) return 'ERROR';
  if (status === 401) return 'NOT_SIGNED_IN';
  if (status === 403) return code === 'EMAIL_NOT_VERIFIED' ? 'EMAIL_NOT_VERIFIED' : 'NOT_SIGNED_IN';
  if (status === 400) return 'INVALID_REQUEST';
  if (status === 410) return 'SESSION_EXPIRED';
  if (status === 402 && type === 'insertCoin') return 'INSUFFICIENT_COINS';
  if (status === 429 && (type === 'insertCoin' || type === 'submitScore')) return 'RATE_LIMITED';
  // The insertion was voided (CONTRACT §19.1): as for a game, a new coin is needed (§14.1's reasons).
  if (type === 'submitScore' && code === 'INSERTION_VOIDED') return 'COIN_REQUIRED';
  if (code && REASONS[type].includes(code) && code !== 'TIMEOUT' && code !== 'ERROR') return code;
  return 'ERROR';
}

/** Keeps a host's answer within the reasons a call may give, so games can switch on them safely. */
export function allowedReason(type: MessageType, reason: unknown): string {
  return typeof reason === 'string' && REASONS[type].includes(reason) ? reason : 'ERROR';
}

/** Reads the host origin the host page put in the game's URL fragment; undefined when absent or not an origin. */
export function hostOriginFromHash(hash: string): string | undefined {
  const raw = new URLSearchParams(hash.replace(/^#/, '')).get(HOST_ORIGIN_PARAM);
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== raw) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
