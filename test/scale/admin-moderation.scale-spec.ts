import type { TestApp } from '../support/app';
import { signedInAdmin } from '../support/admin';
import { eventually } from '../support/eventually';
import { createApiKey, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, getBoard, idempotencyKey, playAndScore, postInitials, startSession } from '../support/play';

/**
 * Moderation across two instances on one PostgreSQL and one Redis (CONTRACT §18): a ban made
 * through one instance ends the user's cookies on the other at once (login sessions are read from
 * PostgreSQL on every request, or, for a heartbeat, checked by its statement), and a score removed through one leaves the other's boards within a
 * second (each instance caches a board for at most 500 ms). API keys are kept in memory by each
 * instance (ApiKeyCache): a revocation or a ban through one reaches the other by LISTEN/NOTIFY.
 */
describe('moderation across instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    if (!process.env.REDIS_URL) throw new Error('REDIS_URL is required: the instances share rate-limit counters through Redis');
    const env = { REDIS_URL: process.env.REDIS_URL };
    a = await createWorldApp({ env });
    b = await createWorldApp({ env, databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a ban through one instance: the other refuses the user\'s cookie at once, and their open game can no longer insert a coin there', async () => {
    const dev = await createDeveloper(a);
    const game = await publishGame(a, dev);
    const player = await signUpVerifiedPlayer(a);
    await fundPlayer(a, player, 5);
    const { sessionId } = await startSession(b, player, game.slug);
    const coin = () => b.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('coin') });
    const heartbeat = () => b.http().post(`/api/play/sessions/${sessionId}/heartbeat`).set('Cookie', player.cookie);
    await b.http().get('/api/me').set('Cookie', player.cookie).expect(200);
    expect((await coin()).status).toBe(200);
    // B keeps the login session for its heartbeats (issue 20); their statement checks it is still live.
    for (let i = 0; i < 2; i++) expect((await heartbeat()).status).toBe(200);

    const admin = await signedInAdmin(a);
    await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Cheating.' }).expect(200);

    const me = await b.http().get('/api/me').set('Cookie', player.cookie);
    expect([me.status, me.body.error]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await coin()).status).toBe(401);
    expect([(await heartbeat()).status, (await heartbeat()).body.error]).toEqual([401, 'UNAUTHENTICATED']);
    const login = await b.http().post('/auth/login').send({ email: player.email, password: player.password });
    expect([login.status, login.body.error]).toEqual([403, 'ACCOUNT_BANNED']);
    const insertions = await a.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(insertions.rows[0].n).toBe(1);
  });

  it('a score removed through one instance leaves the other\'s cached boards within one second', async () => {
    const dev = await createDeveloper(a);
    const game = await publishGame(a, dev);
    const player = await signUpVerifiedPlayer(a);
    await fundPlayer(a, player, 5);
    const low = await playAndScore(a, player, game.slug, 10);
    await postInitials(a, player, low.sessionId, low.scoreId as string, 'LOW').expect(200);
    const forged = await playAndScore(a, player, game.slug, 99999);
    const scores = async (t: TestApp, period: 'all' | 'week') => (await getBoard(t, game.slug, period).expect(200)).body.scores.map((e: { score: string }) => e.score);

    // Instance B caches both boards with the forged score on top.
    for (const period of ['all', 'week'] as const) expect(await scores(b, period)).toEqual(['99999', '10']);

    const admin = await signedInAdmin(a);
    await admin.post(`/api/admin/scores/${forged.scoreId}/remove`, { reason: 'Forged.' }).expect(200);
    // The instance that removed it dropped its cache at once.
    for (const period of ['all', 'week'] as const) expect(await scores(a, period)).toEqual(['10']);

    await new Promise((r) => setTimeout(r, 1000));
    for (const period of ['all', 'week'] as const) expect(await scores(b, period)).toEqual(['10']);
  });

  it('an API key revoked through one instance stops working on the other, which had it in memory, within a second', async () => {
    const dev = await createDeveloper(a);
    const revoked = await createApiKey(a, dev);
    const kept = await createApiKey(a, dev);
    const verify = (key: string) => b.http().get('/api/v1/insertions/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${key}`);
    // B reads both keys once and keeps them: the next calls make no read of the key.
    for (const key of [revoked.key, kept.key]) expect((await verify(key)).status).toBe(404);
    expect((await verify(revoked.key)).status).toBe(404);

    await a.http().delete(`/api/portal/keys/${revoked.id}`).set('Cookie', dev.cookie).expect(204);
    // The instance that revoked it refuses it at once.
    expect((await a.http().get('/api/v1/insertions/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${revoked.key}`)).status).toBe(401);
    expect((await eventually(() => verify(revoked.key), (res) => res.status === 401, { withinMs: 1000, everyMs: 20 })).status).toBe(401);
    expect((await verify(kept.key)).status).toBe(404);
  });

  it('a developer banned through one instance: their key, in the other\'s memory, answers 401 there within a second, and again after the unban', async () => {
    const dev = await createDeveloper(a);
    const { key } = await createApiKey(a, dev);
    const verify = () => b.http().get('/api/v1/insertions/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${key}`);
    expect((await verify()).status).toBe(404);

    const admin = await signedInAdmin(a);
    await admin.post(`/api/admin/users/${dev.accountId}/ban`, { reason: 'Abuse.' }).expect(200);
    expect((await eventually(verify, (res) => res.status === 401, { withinMs: 1000, everyMs: 20 })).status).toBe(401);
    await admin.post(`/api/admin/users/${dev.accountId}/unban`, {}).expect(200);
    expect((await verify()).status).toBe(404);
  });
});
