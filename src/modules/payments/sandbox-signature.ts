import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { InvalidSignatureError } from './payments.errors';
import { assertNotFromTheFuture } from './payment-event.parse';
import { SIGNATURE_TOLERANCE_SECONDS } from './payment-provider';

/** The sandbox's signature header (CONTRACT §19). */
export const SANDBOX_SIGNATURE_HEADER = 'Sandbox-Signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as the sandbox (and the sandbox command) send it. */
export function signSandboxEvent(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Verifies a Sandbox-Signature header: the scheme is Stripe's (t and one or more v1, HMAC-SHA256
 * over "<t>.<raw body>"), so after reading the header as the contract allows (spaces after
 * commas, hex in either case) the comparison and the 5-minute window are the stripe package's
 * own, constant-time; a timestamp more than 5 minutes ahead is refused here too.
 */
export function verifySandboxSignature(rawBody: Buffer, header: string | string[] | undefined, secret: string, nowMs = Date.now()): void {
  if (typeof header !== 'string' || header.length === 0 || header.length > 4096) throw new InvalidSignatureError('The Sandbox-Signature header is missing.');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const [key, value, ...rest] = item.trim().split('=');
    if (rest.length > 0 || value === undefined) throw new InvalidSignatureError('The Sandbox-Signature header is malformed.');
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) throw new InvalidSignatureError('The Sandbox-Signature header has a malformed timestamp.');
      timestamp = Number(value);
    } else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) throw new InvalidSignatureError('The Sandbox-Signature header needs t= and at least one v1=.');
  const normalized = [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(',');
  try {
    Stripe.webhooks.signature!.verifyHeader(rawBody, normalized, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
  } catch {
    throw new InvalidSignatureError();
  }
  assertNotFromTheFuture(timestamp, nowMs);
}
