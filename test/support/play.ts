/**
 * Playing through the public API: fund a wallet (admin credit), start a play session, insert a
 * coin, submit a score. For scoring and achievement tests; use with an app from createWorldApp().
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import type { TestApp } from './app';
import { adminCookie } from './factories';

export function idempotencyKey(prefix = 'k'): string {
  return `${prefix}-${randomBytes(8).toString('hex')}`;
}

function expectStatus(res: Response, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/** Credits `coins` to the player's wallet (admin endpoint). */
export async function fundPlayer(t: TestApp, player: { accountId: string }, coins: number): Promise<void> {
  const res = await t
    .http()
    .post(`/api/admin/wallets/${player.accountId}/credits`)
    .set('Cookie', await adminCookie(t))
    .send({ coins, reason: 'test funds', idempotencyKey: idempotencyKey('fund') });
  expectStatus(res, 201, 'admin credit');
}

export async function startSession(t: TestApp, player: { cookie: string }, gameSlug: string, options: { preview?: boolean } = {}): Promise<{ sessionId: string; testMode: boolean }> {
  const res = await t.http().post('/api/play/sessions').set('Cookie', player.cookie).send({ gameSlug, ...options });
  expectStatus(res, 201, `start play session on ${gameSlug}`);
  return { sessionId: res.body.sessionId, testMode: res.body.testMode };
}

export async function insertCoin(t: TestApp, player: { cookie: string }, sessionId: string): Promise<string> {
  const res = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('coin') });
  expectStatus(res, 200, 'insert coin');
  return res.body.insertionId;
}

/** A new play session with one paid insertion (the player's wallet must cover it). */
export async function paidSession(t: TestApp, player: { cookie: string }, gameSlug: string): Promise<{ sessionId: string; insertionId: string }> {
  const { sessionId } = await startSession(t, player, gameSlug);
  return { sessionId, insertionId: await insertCoin(t, player, sessionId) };
}

export function postScore(t: TestApp, player: { cookie: string }, sessionId: string, score: number, key = idempotencyKey('score')) {
  return t.http().post(`/api/play/sessions/${sessionId}/score`).set('Cookie', player.cookie).send({ score, idempotencyKey: key });
}

export function postInitials(t: TestApp, player: { cookie: string }, sessionId: string, scoreId: string, initials: string) {
  return t.http().post(`/api/play/sessions/${sessionId}/score/initials`).set('Cookie', player.cookie).send({ scoreId, initials });
}

export function postTrustedScore(t: TestApp, apiKey: string, insertionId: string, score: number, key = idempotencyKey('trusted')) {
  return t.http().post(`/api/v1/insertions/${insertionId}/score`).set('Authorization', `Bearer ${apiKey}`).send({ score, idempotencyKey: key });
}

export function getBoard(t: TestApp, slug: string, period?: 'all' | 'week') {
  return t.http().get(`/api/games/${slug}/scores${period ? `?period=${period}` : ''}`);
}

/** Plays one paid round and submits `score`; returns the score result. */
export async function playAndScore(t: TestApp, player: { cookie: string }, gameSlug: string, score: number): Promise<Record<string, unknown> & { sessionId: string }> {
  const { sessionId } = await paidSession(t, player, gameSlug);
  const res = await postScore(t, player, sessionId, score);
  expectStatus(res, 200, `score ${score}`);
  return { ...res.body, sessionId };
}
