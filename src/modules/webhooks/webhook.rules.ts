import { createHmac, randomBytes } from 'node:crypto';
import { BlockList, isIP, isIPv6 } from 'node:net';

/**
 * The rules of developer webhooks (CONTRACT §21) as plain functions: the event types, what an
 * endpoint URL may be, the secret, the Standard Webhooks signature and the retry schedule.
 */

/** Every event type an endpoint may subscribe to, in the contract's order (`ping` is sent on request only). */
export const WEBHOOK_EVENT_TYPES = ['insertion.created', 'insertion.voided', 'score.created', 'score.removed', 'achievement.unlocked', 'session.ended'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookMessageType = WebhookEventType | 'ping';

/** At most this many endpoints per developer, disabled ones included (CONTRACT §21). */
export const WEBHOOK_ENDPOINT_LIMIT = 5;
export const WEBHOOK_URL_MAX_LENGTH = 2000;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 100;
/** An attempt's whole budget, connecting included. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;
/** A delivery is retried for this long after it was recorded, then `failed` (whatever the schedule says). */
export const WEBHOOK_GIVE_UP_MS = 3 * 24 * 3600 * 1000;
/** After a rotation, the old secret signs too for this long. */
export const WEBHOOK_ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** `whsec_` + standard padded base64 of 32 random bytes (44 characters). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the secret's decoded bytes. */
export function webhookSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** Private, loopback, link-local and other non-public ranges: never reached without WEBHOOK_ALLOW_PRIVATE. */
const DENIED = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) DENIED.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  DENIED.addSubnet(address, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may not reach (an IPv4-mapped IPv6 address counts as its IPv4). */
export function isDeniedAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return DENIED.check(mapped[1]!, 'ipv4');
  return DENIED.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4');
}

/** The URL's host as an IP address when it is a literal (the URL parser has already normalised `0x7f000001` and friends), else null. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * Why an endpoint URL is refused at creation (null: accepted): absolute http(s), at most 2,000
 * characters, no credentials; https and a public address unless private ones are allowed. A name is
 * checked when each attempt connects, after DNS.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return `use at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'use an absolute URL such as https://example.com/webhooks';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'use an https:// URL';
  if (url.protocol === 'http:' && !allowPrivate) return 'use an https:// URL (http is accepted only for development)';
  if (url.username || url.password) return 'leave user names and passwords out of the URL';
  if (url.hash) return 'leave the #fragment out of the URL';
  const literal = literalAddress(url);
  if (literal !== null && !allowPrivate && isDeniedAddress(literal)) return 'use a public address: private, loopback and link-local addresses are refused';
  return null;
}

/** Seconds to wait after failed attempt number `attempts` (1-based): the schedule's entry, its last one repeated. */
export function retryDelaySeconds(schedule: readonly number[], attempts: number): number {
  return schedule[Math.min(attempts, schedule.length) - 1] ?? schedule[schedule.length - 1] ?? 60;
}

/**
 * When the next attempt after a failed one is due, or null when the delivery gives up: its next
 * attempt would fall after 3 days from when the event was recorded.
 */
export function nextAttemptAt(schedule: readonly number[], attempts: number, createdAt: Date, now: Date): Date | null {
  const next = new Date(now.getTime() + retryDelaySeconds(schedule, attempts) * 1000);
  return next.getTime() - createdAt.getTime() > WEBHOOK_GIVE_UP_MS ? null : next;
}
