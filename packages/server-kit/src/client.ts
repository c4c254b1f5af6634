import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './api.generated';

/** The paths an API key may call (CONTRACT §11, spec §4.8): the developer API, nothing else. */
export type DeveloperApiPaths = Pick<paths, '/api/v1/insertions/{insertionId}' | '/api/v1/insertions/{insertionId}/score' | '/api/v1/sessions/{id}'>;
export type DeveloperApiClient = Client<DeveloperApiPaths>;

export type InsertionVerification = components['schemas']['InsertionVerificationDto'];
export type SessionSummary = components['schemas']['PlaySessionSummaryDto'];
export type ScoreResult = components['schemas']['ScoreResultDto'];
export type ApiError = components['schemas']['Error'];

export interface ArcadeClientOptions {
  /** The arcade's origin, e.g. `https://arcade.example.com` (no trailing `/api`). */
  baseUrl: string;
  /** `svc_live_…` or `svc_test_…`, from the developer portal's "API keys". Keep it on your server. */
  apiKey: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: ClientOptions['fetch'];
}

const KEY = /^svc_(live|test)_[A-Za-z0-9_-]{32,}$/;

/**
 * An openapi-fetch client of the developer API, typed from docs/openapi.json, that sends the key as
 * `Authorization: Bearer <key>`. A malformed key throws here rather than answering 401 later.
 */
export function createArcadeClient(options: ArcadeClientOptions): DeveloperApiClient {
  if (!KEY.test(options.apiKey)) throw new Error('createArcadeClient: apiKey must be an arcade API key (svc_live_… or svc_test_…)');
  return createClient<DeveloperApiPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** An answer of the developer API other than the one asked for (401, 403, 429, 5xx ...). */
export class ArcadeApiError extends Error {
  override readonly name = 'ArcadeApiError';
  constructor(
    readonly status: number,
    /** The flat error body's `error` code (`UNAUTHENTICATED`, `RATE_LIMITED`, ...), or null when the body was not one. */
    readonly code: ApiError['error'] | null,
    message: string,
    /** On 429: milliseconds to wait before trying again. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

function apiError(what: string, response: Response, body: unknown): ArcadeApiError {
  const flat = typeof body === 'object' && body !== null && 'error' in body ? (body as ApiError) : null;
  return new ArcadeApiError(
    response.status,
    flat?.error ?? null,
    `${what}: HTTP ${response.status}${flat ? ` ${flat.error}: ${flat.message}` : ''}`,
    typeof flat?.retryAfterMs === 'number' ? flat.retryAfterMs : null,
  );
}

/**
 * What a paid insertion's verification says. `paid: true` only for an insertion of one of your games
 * that an admin has not voided: the API answers 200 for a voided insertion too (with `voidedAt`
 * set, CONTRACT §19), and its `valid` is always true, so checking `valid` alone would grant an item
 * for coins the player got back.
 */
export type PaidInsertion =
  | { paid: true; insertion: InsertionVerification & { voidedAt: null } }
  | { paid: false; reason: 'voided'; insertion: InsertionVerification }
  | { paid: false; reason: 'not_found'; insertion: null };

/**
 * Verifies an insertion id a player's game handed to your backend (`GET /api/v1/insertions/{id}`).
 * 404 (unknown, a test-mode `test_` id, another developer's) is `not_found`; any other failure
 * (a revoked key, a rate limit, the arcade down) throws ArcadeApiError: never grant on it, and
 * never tell the player the coin was fake because of it.
 */
export async function verifyPaidInsertion(client: DeveloperApiClient, insertionId: string): Promise<PaidInsertion> {
  const { data, error, response } = await client.GET('/api/v1/insertions/{insertionId}', { params: { path: { insertionId } } });
  if (data) return data.voidedAt === null ? { paid: true, insertion: { ...data, voidedAt: null } } : { paid: false, reason: 'voided', insertion: data };
  if (response.status === 404) return { paid: false, reason: 'not_found', insertion: null };
  throw apiError(`verify insertion ${insertionId}`, response, error);
}

/**
 * Submits a trusted, server-verified score for a paid insertion (live key only). Keep
 * `idempotencyKey` with the score and send the same one when you retry: the arcade applies it once
 * and answers the retry with `replayed: true`. Refusals (409 INSERTION_ALREADY_SCORED, 422
 * SCORE_OUT_OF_RANGE, 403 LIVE_KEY_REQUIRED, ...) throw ArcadeApiError with that `code`.
 */
export async function submitTrustedScore(client: DeveloperApiClient, insertionId: string, body: { score: number; idempotencyKey: string }): Promise<ScoreResult> {
  const { data, error, response } = await client.POST('/api/v1/insertions/{insertionId}/score', { params: { path: { insertionId } }, body });
  if (data) return data;
  throw apiError(`trusted score for insertion ${insertionId}`, response, error);
}
