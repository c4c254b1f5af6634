import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, webhookId, WebhookEvent, WebhookVerificationError } from '../src';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A delivery as the arcade makes it (CONTRACT §21): the body, and headers signed with each secret. */
function delivery(body: object, secrets: string[], at = new Date(), id = randomUUID()) {
  const raw = JSON.stringify(body);
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, raw)).join(' ');
  return { raw, id, headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature, 'content-type': 'application/json' } };
}

function rejection(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('expected a WebhookVerificationError, got none');
}

const now = new Date().toISOString();
const examples: WebhookEvent[] = [
  { type: 'insertion.created', timestamp: now, data: { insertionId: 'i1', gameId: 'g1', sessionId: 's1', playerRef: `pr_${'a'.repeat(32)}`, coins: 2, createdAt: now } },
  { type: 'insertion.voided', timestamp: now, data: { insertionId: 'i1', gameId: 'g1', sessionId: 's1', playerRef: `pr_${'a'.repeat(32)}`, coins: 2, voidedAt: now } },
  { type: 'score.created', timestamp: now, data: { scoreId: 'sc1', gameId: 'g1', sessionId: 's1', insertionId: 'i1', playerRef: `pr_${'a'.repeat(32)}`, score: '9007199254740991', source: 'trusted', achievedAt: now } },
  { type: 'score.removed', timestamp: now, data: { scoreId: 'sc1', gameId: 'g1', removedAt: now } },
  { type: 'achievement.unlocked', timestamp: now, data: { gameId: 'g1', key: 'first-steps', playerRef: `pr_${'a'.repeat(32)}`, unlockedAt: now } },
  { type: 'session.ended', timestamp: now, data: { sessionId: 's1', gameId: 'g1', playerRef: `pr_${'a'.repeat(32)}`, endedAt: now, totalCoins: 3 } },
  { type: 'ping', timestamp: now, data: { webhookId: 'w1' } },
];

describe('verifyWebhook', () => {
  it.each(examples.map((e) => [e.type, e] as const))('returns a %s event as sent, typed by its type', (_type, event) => {
    const secret = newSecret();
    const { raw, headers } = delivery(event, [secret]);
    expect(verifyWebhook(raw, headers, secret)).toEqual(event);
    expect(verifyWebhook(Buffer.from(raw), headers, secret)).toEqual(event);
  });

  it('narrows data by type (a compile-time check as much as a test)', () => {
    const secret = newSecret();
    const { raw, headers } = delivery(examples[1]!, [secret]);
    const event = verifyWebhook(raw, headers, secret);
    const revoked = event.type === 'insertion.voided' ? event.data.insertionId : null;
    expect(revoked).toBe('i1');
  });

  it('accepts the two signatures of a rotation with the old secret, the new one, or both given', () => {
    const [old, fresh] = [newSecret(), newSecret()];
    const { raw, headers } = delivery(examples[0]!, [fresh, old]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(raw, headers, old).type).toBe('insertion.created');
    expect(verifyWebhook(raw, headers, fresh).type).toBe('insertion.created');
    expect(verifyWebhook(raw, headers, [fresh, old]).type).toBe('insertion.created');
    // After the 24 hours, only the new secret signs: a backend holding both still verifies.
    const later = delivery(examples[0]!, [fresh]);
    expect(verifyWebhook(later.raw, later.headers, [old, fresh]).type).toBe('insertion.created');
    expect(rejection(() => verifyWebhook(later.raw, later.headers, old)).reason).toBe('bad_signature');
  });

  it('refuses a wrong secret, a changed body and a re-serialised body: bad_signature', () => {
    const secret = newSecret();
    const { raw, headers } = delivery(examples[0]!, [secret]);
    expect(rejection(() => verifyWebhook(raw, headers, newSecret())).reason).toBe('bad_signature');
    expect(rejection(() => verifyWebhook(raw.replace('"coins":2', '"coins":20'), headers, secret)).reason).toBe('bad_signature');
    const reserialised = JSON.stringify(JSON.parse(raw), null, 1);
    const error = rejection(() => verifyWebhook(reserialised, headers, secret));
    expect(error.reason).toBe('bad_signature');
    expect(error.message).toMatch(/^webhook: No matching signature found/);
  });

  it('refuses a timestamp more than 5 minutes away, either way: stale_timestamp', () => {
    const secret = newSecret();
    for (const offset of [-6 * 60_000, 6 * 60_000]) {
      const { raw, headers } = delivery(examples[0]!, [secret], new Date(Date.now() + offset));
      expect(rejection(() => verifyWebhook(raw, headers, secret)).reason).toBe('stale_timestamp');
    }
  });

  it('refuses missing or malformed headers: missing_headers', () => {
    const secret = newSecret();
    const { raw, headers } = delivery(examples[0]!, [secret]);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const without: Record<string, string> = { ...headers };
      delete without[name];
      expect(rejection(() => verifyWebhook(raw, without, secret)).reason).toBe('missing_headers');
    }
    expect(rejection(() => verifyWebhook(raw, { ...headers, 'webhook-timestamp': 'yesterday' }, secret)).reason).toBe('missing_headers');
  });

  it('refuses a signed body that is not an event it knows: bad_payload', () => {
    const secret = newSecret();
    for (const body of [{ type: 'insertion.refunded', timestamp: now, data: {} }, { type: 'ping', timestamp: now }, { hello: 'world' }]) {
      const { raw, headers } = delivery(body, [secret]);
      expect(rejection(() => verifyWebhook(raw, headers, secret)).reason).toBe('bad_payload');
    }
    const id = randomUUID();
    const notJson = 'not json';
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, new Date(), notJson) };
    expect(rejection(() => verifyWebhook(notJson, headers, secret)).reason).toBe('bad_payload');
  });

  it('reads headers as Node, the Fetch API or a plain object gives them, in any case', () => {
    const secret = newSecret();
    const { raw, headers, id } = delivery(examples[6]!, [secret]);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(raw, upper, secret).type).toBe('ping');
    expect(verifyWebhook(raw, new Headers(headers), secret).type).toBe('ping');
    expect(verifyWebhook(raw, { ...headers, 'x-forwarded-for': ['10.0.0.1', '10.0.0.2'], 'x-nothing': undefined }, secret).type).toBe('ping');
    expect(webhookId(headers)).toBe(id);
    expect(webhookId(new Headers(headers))).toBe(id);
    expect(rejection(() => webhookId({})).reason).toBe('missing_headers');
  });

  it('throws a plain Error, not a verification error, for a secret that is not one (a configuration mistake)', () => {
    const { raw, headers } = delivery(examples[0]!, [newSecret()]);
    for (const secret of ['', 'not base64!', []]) {
      expect(() => verifyWebhook(raw, headers, secret)).toThrow(/secret must be the endpoint's signing secret/);
      expect(() => verifyWebhook(raw, headers, secret)).not.toThrow(WebhookVerificationError);
    }
  });
});
