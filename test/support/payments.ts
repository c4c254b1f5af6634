/**
 * Buying coins through the public API and delivering signed sandbox events to the webhook, as the
 * sandbox (or a payment provider) would. The signing key is the one the service generated and
 * stored (read back from app_settings), unless a test passes its own.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import type { TestApp } from './app';
import { idempotencyKey } from './play';

export type SandboxEventType = 'payment.succeeded' | 'payment.failed' | 'payment.refunded' | 'payment.disputed' | 'payment.dispute_won' | 'payment.dispute_lost';

/** Fields an event may carry beyond id, type, purchaseId and created (CONTRACT §19.1: `amountCents`, `currency`). */
export type EventExtra = Record<string, unknown>;

export async function webhookSecret(t: Pick<TestApp, 'db'>): Promise<string> {
  const { rows } = await t.db.query<{ value: string }>("SELECT value FROM app_settings WHERE key = 'payment_webhook_secret'");
  if (!rows[0]) throw new Error('No payment_webhook_secret stored');
  return rows[0].value;
}

export function sign(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function eventId(): string {
  return `evt_${randomBytes(8).toString('hex')}`;
}

export function eventBody(type: string, purchaseId: string, id = eventId(), extra: EventExtra = {}): string {
  return JSON.stringify({ id, type, purchaseId, created: Math.floor(Date.now() / 1000), ...extra });
}

/** POSTs a raw body with a Sandbox-Signature header. */
export function postSandbox(t: Pick<TestApp, 'http'>, body: string, signature: string | undefined, contentType = 'application/json') {
  const req = t.http().post('/webhooks/payments/sandbox').set('Content-Type', contentType);
  if (signature !== undefined) req.set('Sandbox-Signature', signature);
  return req.send(body);
}

/** Delivers a correctly signed sandbox event; `.expect(status)` as with supertest. */
export function deliver(t: Pick<TestApp, 'http' | 'db'>, type: SandboxEventType | string, purchaseId: string, id = eventId(), extra: EventExtra = {}) {
  const sent = (async () => {
    const body = eventBody(type, purchaseId, id, extra);
    return postSandbox(t, body, sign(await webhookSecret(t), body));
  })();
  return Object.assign(sent, {
    async expect(status: number): Promise<Response> {
      const res = await sent;
      if (res.status !== status) throw new Error(`${type} for ${purchaseId}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
      return res;
    },
  });
}

export function buy(t: Pick<TestApp, 'http'>, player: { cookie: string }, packId = 'pack-10', key = idempotencyKey('buy')) {
  return t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId, idempotencyKey: key });
}

/** A pending purchase of `packId`; returns its id. */
export async function pendingPurchase(t: Pick<TestApp, 'http'>, player: { cookie: string }, packId = 'pack-10'): Promise<string> {
  const res = await buy(t, player, packId);
  if (res.status !== 201) throw new Error(`purchase: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.purchaseId;
}

/** A purchase paid through the webhook (the coins credited). */
export async function paidPurchase(t: Pick<TestApp, 'http' | 'db'>, player: { cookie: string }, packId = 'pack-10'): Promise<string> {
  const purchaseId = await pendingPurchase(t, player, packId);
  const res = await deliver(t, 'payment.succeeded', purchaseId);
  if (res.status !== 200) throw new Error(`pay: ${res.status} ${JSON.stringify(res.body)}`);
  return purchaseId;
}

export async function purchaseOf(t: Pick<TestApp, 'http'>, player: { cookie: string }, purchaseId: string): Promise<Record<string, unknown>> {
  const res = await t.http().get('/api/me/purchases').set('Cookie', player.cookie);
  const found = (res.body.purchases as Record<string, unknown>[]).find((p) => p.purchaseId === purchaseId);
  if (!found) throw new Error(`purchase ${purchaseId} not listed`);
  return found;
}

export async function balanceOf(t: Pick<TestApp, 'http'>, player: { cookie: string }): Promise<number> {
  const res = await t.http().get('/api/me').set('Cookie', player.cookie);
  return res.body.balance as number;
}
