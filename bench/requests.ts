import { freshKey } from './client';
import type { LoadOptions } from './load';
import type { PlaySession } from './seed';

/** Round-robin over a list. */
export function cycle<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

/** Insert-coin round-robin over the sessions, a fresh idempotency key each. */
export function insertCoinRequests(sessions: PlaySession[]): LoadOptions['next'] {
  const next = cycle(sessions);
  return () => {
    const s = next();
    return { method: 'POST', path: `/api/play/sessions/${s.sessionId}/insert-coin`, headers: { cookie: s.cookie }, body: JSON.stringify({ idempotencyKey: freshKey('ic') }) };
  };
}

/** Heartbeats round-robin over the sessions. */
export function heartbeatRequests(sessions: PlaySession[]): LoadOptions['next'] {
  const next = cycle(sessions);
  return () => {
    const s = next();
    return { method: 'POST', path: `/api/play/sessions/${s.sessionId}/heartbeat`, headers: { cookie: s.cookie } };
  };
}

/** The developer verification of insertions, round-robin over the ids, with one API key. */
export function verifyRequests(insertionIds: string[], apiKey: string): LoadOptions['next'] {
  const next = cycle(insertionIds);
  return () => ({ method: 'GET', path: `/api/v1/insertions/${next()}`, headers: { authorization: `Bearer ${apiKey}` } });
}

/** One signed-in page, again and again. */
export function pageRequests(path: string, cookie: string): LoadOptions['next'] {
  return () => ({ method: 'GET', path, headers: { cookie } });
}
