import { Webhook, WebhookVerificationError as StandardWebhookError } from 'standardwebhooks';

/**
 * The events of CONTRACT §21 as the arcade sends them: body `{ type, timestamp, data }`, `timestamp`
 * the time of the change (ISO 8601), ids as strings, `score` a digit string (scores go up to
 * 2^53 - 1).
 */
export interface WebhookEventData {
  'insertion.created': { insertionId: string; gameId: string; sessionId: string; playerRef: string; coins: number; createdAt: string };
  'insertion.voided': { insertionId: string; gameId: string; sessionId: string; playerRef: string; coins: number; voidedAt: string };
  'score.created': { scoreId: string; gameId: string; sessionId: string; insertionId: string; playerRef: string; score: string; source: 'player' | 'trusted'; achievedAt: string };
  'score.removed': { scoreId: string; gameId: string; removedAt: string };
  'achievement.unlocked': { gameId: string; key: string; playerRef: string; unlockedAt: string };
  'session.ended': { sessionId: string; gameId: string; playerRef: string; endedAt: string; totalCoins: number };
  ping: { webhookId: string };
}

export type WebhookEventType = keyof WebhookEventData;

/** One event, discriminated by `type`: `switch (event.type)` narrows `data`. */
export type WebhookEvent = { [T in WebhookEventType]: { type: T; timestamp: string; data: WebhookEventData[T] } }[WebhookEventType];

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = ['insertion.created', 'insertion.voided', 'score.created', 'score.removed', 'achievement.unlocked', 'session.ended', 'ping'];

/** Request headers as Node (`req.headers`), the Fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * A request that is not a genuine, fresh arcade webhook: answer it 400 (or 401) and act on nothing.
 * `reason` is the check that failed.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    /** missing_headers: a webhook-* header is missing or malformed; stale_timestamp: over 5 minutes off. */
    readonly reason: 'missing_headers' | 'bad_signature' | 'stale_timestamp' | 'bad_payload',
    message: string,
  ) {
    super(message);
  }
}

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return out;
}

/**
 * The `webhook-id` header: the event's id, the same on every retry and every endpoint. Deliveries
 * are at least once, so remember the ids you have handled and skip a repeat. Read it after
 * verifyWebhook: the id is part of what is signed.
 */
export function webhookId(headers: WebhookHeaders): string {
  const id = plainHeaders(headers)['webhook-id'];
  if (!id) throw new WebhookVerificationError('missing_headers', 'webhook: no webhook-id header');
  return id;
}

function verifiers(secret: string | readonly string[]): Webhook[] {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => !/^(whsec_)?[A-Za-z0-9+/]+={0,2}$/.test(s))) {
    // A configuration mistake, not a bad request: a plain Error, so it is not answered as one.
    throw new Error('verifyWebhook: secret must be the endpoint\'s signing secret, "whsec_" followed by base64');
  }
  return secrets.map((s) => new Webhook(s));
}

function payloadError(message: string): WebhookVerificationError {
  return new WebhookVerificationError('bad_payload', `webhook: ${message}`);
}

function envelope(parsed: unknown): WebhookEvent {
  if (typeof parsed !== 'object' || parsed === null) throw payloadError('the body is not a JSON object');
  const { type, timestamp, data } = parsed as Record<string, unknown>;
  if (typeof type !== 'string' || typeof timestamp !== 'string' || typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw payloadError('the body is not { type, timestamp, data }');
  }
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
    throw payloadError(`unknown event type "${type}" (this kit knows ${WEBHOOK_EVENT_TYPES.join(', ')}): update @arcade-coin/server-kit or unsubscribe the endpoint from it`);
  }
  return parsed as WebhookEvent;
}

/**
 * Verifies an arcade webhook (Standard Webhooks, CONTRACT §21) and returns its event, typed by
 * `type`; throws WebhookVerificationError when the headers are missing, no signature matches, the
 * `webhook-timestamp` is more than 5 minutes from now, or the body is not an event.
 *
 * - `rawBody`: the bytes as received (a string or Buffer), before any JSON parsing: re-serialised
 *   JSON does not verify.
 * - `secret`: the endpoint's `whsec_…` secret. While you switch to a rotated secret you may pass
 *   both (`[newSecret, oldSecret]`); for 24 hours after a rotation the arcade signs with both
 *   anyway (two signatures in `webhook-signature`), so either secret alone verifies.
 *
 * Deliveries are at least once: dedupe on `webhookId(headers)`.
 */
export function verifyWebhook(rawBody: string | Buffer, headers: WebhookHeaders, secret: string | readonly string[]): WebhookEvent {
  const plain = plainHeaders(headers);
  let lastError: unknown;
  for (const verifier of verifiers(secret)) {
    let parsed: unknown;
    try {
      parsed = verifier.verify(rawBody, plain);
    } catch (error) {
      if (error instanceof SyntaxError) throw payloadError('the signed body is not JSON');
      lastError = error;
      continue;
    }
    return envelope(parsed);
  }
  const message = lastError instanceof Error ? lastError.message : String(lastError);
  if (!(lastError instanceof StandardWebhookError)) throw lastError;
  if (message === 'Missing required headers') throw new WebhookVerificationError('missing_headers', 'webhook: missing webhook-id, webhook-timestamp or webhook-signature header');
  if (message === 'Invalid Signature Headers') throw new WebhookVerificationError('missing_headers', 'webhook: webhook-timestamp is not unix seconds');
  if (/timestamp/i.test(message)) throw new WebhookVerificationError('stale_timestamp', `webhook: ${message} (more than 5 minutes from this server's clock)`);
  throw new WebhookVerificationError('bad_signature', `webhook: ${message} (wrong secret, or the body was changed or re-serialised)`);
}
