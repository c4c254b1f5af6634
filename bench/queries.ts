import { Client } from 'pg';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { freePort } from '../src/database/embedded-postgres';
import { Caller, freshKey } from './client';
import type { Game } from './seed';

/**
 * Counts round trips to PostgreSQL per request: the same app, in this process, with every
 * `pg` Client.query (TypeORM's and the unit of work's alike, BEGIN and COMMIT included) counted.
 */
export interface Census {
  roundTrips: Record<string, number>;
  /** Texts of the statements one paid insert-coin sent, in order. */
  insertCoinStatements: string[];
  /** The statements of one request of each path (the first measured one), shortened. */
  statements: Record<string, string[]>;
}

export async function countQueries(
  databaseUrl: string,
  w: { cookie: string; coinSessions: string[]; game: Game; insertionId: string; liveKey: string },
): Promise<Census> {
  let count = 0;
  let recording: string[] | undefined;
  const original = Client.prototype.query;
  (Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: Client, ...args: unknown[]) {
    count++;
    const first = args[0] as string | { text?: string };
    recording?.push(typeof first === 'string' ? first : first?.text ?? '');
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  const config = loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', SEED_DEMO: 'false', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, DATABASE_OWNER_URL: databaseUrl, RATE_LIMIT_DEVELOPER_PER_KEY: '100000/60' });
  const app = await createApp({ ...config, databaseUrl });
  const port = await freePort();
  await app.nest.listen(port, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const player = new Caller(url, w.cookie);
  const api = new Caller(url, undefined, w.liveKey);
  const out: Record<string, number> = {};
  const insertCoinStatements: string[] = [];
  const statements: Record<string, string[]> = {};
  const short = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 140);
  const measure = async (name: string, times: number, once: (i: number) => Promise<unknown>, pauseMs = 0) => {
    await once(-1); // warms prepared statements and caches
    const before = count;
    for (let i = 0; i < times; i++) {
      if (i === 0) recording = statements[name] = [];
      await once(i);
      if (i === 0) {
        recording = undefined;
        statements[name] = statements[name].map(short);
      }
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
    out[name] = (count - before) / times;
  };
  try {
    const sessions = w.coinSessions;
    const n = sessions.length - 1;
    recording = insertCoinStatements;
    const replayKey = freshKey('q');
    await player.post(`/api/play/sessions/${sessions[0]}/insert-coin`, { idempotencyKey: replayKey });
    recording = undefined;
    // The warm-up below uses sessions[0] again: wait out its 500 ms insert-coin limit.
    await new Promise((r) => setTimeout(r, 600));
    // Each insert-coin in its own play session (the per-session limit); then each score on that insertion.
    await measure('POST insert-coin', n, (i) => player.post(`/api/play/sessions/${sessions[i + 1]}/insert-coin`, { idempotencyKey: freshKey('q') }));

    await measure('POST score', n, (i) => player.post(`/api/play/sessions/${sessions[i + 1]}/score`, { score: 10 + i, idempotencyKey: freshKey('q') }));
    // A second paid insertion in each session (past its 500 ms limit), each scored by the developer's server.
    await new Promise((r) => setTimeout(r, 600));
    const fresh: string[] = [];
    for (const id of sessions) fresh.push((await player.post<{ insertionId: string }>(`/api/play/sessions/${id}/insert-coin`, { idempotencyKey: freshKey('q') })).insertionId);
    await measure('POST trusted score', n, (i) => api.post(`/api/v1/insertions/${fresh[i + 1]}/score`, { score: 20 + i, idempotencyKey: freshKey('q') }));
    await measure('POST insert-coin (replay)', 5, () => player.post(`/api/play/sessions/${sessions[0]}/insert-coin`, { idempotencyKey: replayKey }));
    await measure('POST heartbeat', 20, () => player.post(`/api/play/sessions/${sessions[0]}/heartbeat`));
    await measure('GET leaderboard all (cache miss)', 5, () => player.get(`/api/games/${w.game.slug}/scores?period=all`), 600);
    await measure('GET leaderboard week (cache miss)', 5, () => player.get(`/api/games/${w.game.slug}/scores?period=week`), 600);
    await measure('GET leaderboard (cache hit)', 20, () => player.get(`/api/games/${w.game.slug}/scores?period=all`));
    await measure('GET /api/v1/insertions/{id}', 20, () => api.get(`/api/v1/insertions/${w.insertionId}`));
    await measure('GET /health/live', 20, () => player.get('/health/live'));
  } finally {
    await app.close();
    Client.prototype.query = original;
  }
  return { roundTrips: out, insertCoinStatements, statements };
}
