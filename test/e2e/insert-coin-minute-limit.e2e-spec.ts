import { TestApp } from '../support/app';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';

/**
 * Spec §8 / CONTRACT §16.4, §16.18: at most 60 insert-coin attempts in any 60 seconds per play
 * session. The rate limits' clock moves 520 ms between attempts (30 s in all) without waiting.
 */
describe('insert-coin: 60 attempts per minute per play session', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
  });
  afterAll(async () => t.close());

  it('refuses the 61st attempt within a minute with 429, counting 402s, and charges nothing for it', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 50);
    const { sessionId } = await startSession(t, player, game.slug);
    const insert = (key: string) => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });

    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await insert(idempotencyKey());
      statuses.push(res.status);
      // never faster than the 500 ms rule
      t.clock.advance(520);
    }
    // 50 paid, then 10 refused for want of coins: all 60 are attempts
    expect(statuses.filter((s) => s === 200).length).toBe(50);
    expect(statuses.filter((s) => s === 402).length).toBe(10);

    await fundPlayer(t, player, 10);
    const refused = await insert(idempotencyKey()).expect(429);
    expect(refused.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(refused.body.retryAfterMs).toBeGreaterThan(500);
    expect(Number(refused.headers['retry-after'])).toBe(Math.max(1, Math.ceil(refused.body.retryAfterMs / 1000)));

    const count = await t.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(count.rows[0].n).toBe(50);
    const balance = await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200);
    expect(balance.body.balance).toBe(10);
  });
});
