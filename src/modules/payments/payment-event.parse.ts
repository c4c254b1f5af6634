import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../../errors/app-error';
import { oddJson } from '../../http/json-body';
import { fieldWords } from '../../http/validation-messages';
import { InvalidSignatureError } from './payments.errors';
import { SIGNATURE_TOLERANCE_SECONDS } from './payment-provider';

const MAX_ID = 255;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field of a provider object, or null. */
export function stringField(object: unknown, name: string): string | null {
  if (!isObject(object)) return null;
  const value = object[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID ? value : null;
}

/** Stripe fields that are an id or, expanded, an object with one. */
export function idField(object: unknown, name: string): string | null {
  if (!isObject(object)) return null;
  return stringField(object, name) ?? stringField(object[name], 'id');
}

/**
 * An amount in cents the event may carry: absent (null), else a whole number of cents from 0 up;
 * 400 INVALID_REQUEST for anything else (CONTRACT §19.1, §13 wrong types).
 */
export function centsField(object: unknown, name: string): number | null {
  const value = isObject(object) ? object[name] : undefined;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    const words = `${fieldWords(name)}: use a whole number of cents, 0 or more.`;
    throw new InvalidRequestError(words, [{ field: name, problems: [words] }]);
  }
  return value;
}

/** A currency the event may name, in lower case (`USD` is `usd`); 400 INVALID_REQUEST when it is not a string. */
export function currencyField(object: unknown, name: string): string | null {
  const value = isObject(object) ? object[name] : undefined;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > 16) {
    const words = `${fieldWords(name)}: use a currency code such as “usd”.`;
    throw new InvalidRequestError(words, [{ field: name, problems: [words] }]);
  }
  return value.toLowerCase();
}

/** SHA-256 (hex) of a raw body: what tells a changed body from a repeated one under one event id. */
export function bodyHash(rawBody: Buffer): string {
  return createHash('sha256').update(rawBody).digest('hex');
}

/**
 * A verified body as an event: a JSON object with a non-empty string `id` and `type` (at most 255
 * characters each), and no string anywhere in it the database could not take (U+0000, a lone
 * surrogate: §13); 400 INVALID_REQUEST otherwise (CONTRACT §19, §19.1).
 */
export function eventObject(parsed: unknown): JsonObject & { id: string; type: string } {
  if (!isObject(parsed)) throw new InvalidRequestError('The verified body is not a JSON event object.');
  const odd = oddJson(parsed);
  if (odd) throw new InvalidRequestError(odd);
  const problems: { field: string; problems: string[] }[] = [];
  for (const field of ['id', 'type']) {
    const value = parsed[field];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID) {
      problems.push({ field, problems: [`${fieldWords(field)}: use text of 1 to ${MAX_ID} characters.`] });
    }
  }
  if (problems.length > 0) throw new InvalidRequestError(`The verified body is not an event. ${problems.map((p) => p.problems[0]).join(' ')}`, problems);
  return parsed as JsonObject & { id: string; type: string };
}

export function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new InvalidRequestError('The verified body is not JSON.');
  }
}

/**
 * The signature's timestamp may lie at most 5 minutes in the future too (a provider's own check
 * may look only at the past): 400 INVALID_SIGNATURE beyond that.
 */
export function assertNotFromTheFuture(timestamp: number, nowMs = Date.now()): void {
  if (timestamp - Math.floor(nowMs / 1000) > SIGNATURE_TOLERANCE_SECONDS) throw new InvalidSignatureError();
}
