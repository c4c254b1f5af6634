import { randomUUID } from 'node:crypto';
import type { TestApp } from '../support/app';
import { adminCookie, createApiKey, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession, postScore, postTrustedScore, startSession } from '../support/play';

/**
 * CONTRACT §16.17 (and §16.14 for the developer API): the resource the path names (404, then its
 * state, 410) comes before a conflict (409). Issue 14 saw a reused idempotency key on an unknown
 * insertion answered 409. A replay (same key, same request) is still answered first (§7).
 */
describe('order of checks: the path 404 before an idempotency conflict', () => {
  let t: TestApp;
  let liveKey: string;
  let otherLiveKey: string;
  let insertionId: string;
  let player: Awaited<ReturnType<typeof signUpVerifiedPlayer>>;
  let slug: string;

  beforeAll(async () => {
    t = await createWorldApp();
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    slug = game.slug;
    liveKey = (await createApiKey(t, dev, 'live')).key;
    otherLiveKey = (await createApiKey(t, await createDeveloper(t), 'live')).key;
    player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 20);
    insertionId = (await paidSession(t, player, slug)).insertionId;
  });
  afterAll(async () => t.close());

  it('POST /api/v1/insertions/{unknown}/score with a reused idempotency key answers 404, not 409', async () => {
    const key = idempotencyKey('trusted');
    const first = await postTrustedScore(t, liveKey, insertionId, 100, key);
    expect(first.status).toBe(200);
    for (const unknown of [randomUUID(), 'test_0123456789abcdef', 'no-such-insertion']) {
      const res = await postTrustedScore(t, liveKey, unknown, 100, key);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'NOT_FOUND' });
    }
    // Another developer's insertion is unknown to that developer's key (keys belong to their caller).
    const foreign = await postTrustedScore(t, otherLiveKey, insertionId, 100, key);
    expect({ status: foreign.status, error: foreign.body.error }).toEqual({ status: 404, error: 'NOT_FOUND' });
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM scores WHERE insertion_id = $1', [insertionId]);
    expect(rows[0].n).toBe(1);
  });

  it('a reused key on an existing insertion is still 409, and a replay still answers 200 replayed', async () => {
    const { insertionId: other } = await paidSession(t, player, slug);
    const key = idempotencyKey('trusted');
    await postTrustedScore(t, liveKey, other, 5, key).expect(200);
    const replay = await postTrustedScore(t, liveKey, other, 5, key).expect(200);
    expect(replay.body.replayed).toBe(true);
    const conflict = await postTrustedScore(t, liveKey, other, 6, key);
    expect({ status: conflict.status, error: conflict.body.error }).toEqual({ status: 409, error: 'IDEMPOTENCY_KEY_CONFLICT' });
  });

  it('insert-coin on an unknown play session with a reused key answers 404 SESSION_NOT_FOUND, an ended one 410', async () => {
    const { sessionId } = await startSession(t, player, slug);
    const key = idempotencyKey('coin');
    await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key }).expect(200);
    const unknown = await t.http().post(`/api/play/sessions/${randomUUID()}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 404, error: 'SESSION_NOT_FOUND' });

    const { sessionId: ended } = await startSession(t, player, slug);
    await t.http().post(`/api/play/sessions/${ended}/end`).set('Cookie', player.cookie).expect(200);
    const expired = await t.http().post(`/api/play/sessions/${ended}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });
    expect({ status: expired.status, error: expired.body.error }).toEqual({ status: 410, error: 'SESSION_EXPIRED' });

    // Another player's session is unknown to this player.
    const stranger = await signUpVerifiedPlayer(t);
    const { sessionId: theirs } = await startSession(t, stranger, slug);
    const foreign = await t.http().post(`/api/play/sessions/${theirs}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });
    expect({ status: foreign.status, error: foreign.body.error }).toEqual({ status: 404, error: 'SESSION_NOT_FOUND' });
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = ANY($1::uuid[])', [[ended, theirs]]);
    expect(rows[0].n).toBe(0);
  });

  it('a player score on an unknown play session with a reused key answers 404 SESSION_NOT_FOUND', async () => {
    const { sessionId } = await paidSession(t, player, slug);
    const key = idempotencyKey('score');
    await postScore(t, player, sessionId, 10, key).expect(200);
    const res = await postScore(t, player, randomUUID(), 10, key);
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'SESSION_NOT_FOUND' });
  });

  it('an admin credit to an unknown user with a reused key answers 404 NOT_FOUND', async () => {
    const admin = await adminCookie(t);
    const key = idempotencyKey('credit');
    await t.http().post(`/api/admin/wallets/${player.accountId}/credits`).set('Cookie', admin).send({ coins: 1, reason: 'r', idempotencyKey: key }).expect(201);
    const res = await t.http().post(`/api/admin/wallets/${randomUUID()}/credits`).set('Cookie', admin).send({ coins: 1, reason: 'r', idempotencyKey: key });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'NOT_FOUND' });
  });
});
