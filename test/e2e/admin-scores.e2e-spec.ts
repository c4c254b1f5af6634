/**
 * POST /api/admin/scores/{scoreId}/remove (CONTRACT §18): the score leaves both boards at once
 * (this instance's cache included), the next best move up, the insertion stays paid and
 * verifiable, a repeat answers the first removedAt and is audited once.
 */
import type { TestApp } from '../support/app';
import { SignedInAdmin, signedInAdmin } from '../support/admin';
import { createApiKey, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, getBoard, playAndScore, postInitials } from '../support/play';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type BoardEntry = { rank: number; initials: string; score: string };

describe('POST /api/admin/scores/{scoreId}/remove', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let dev: Developer;

  const board = async (slug: string, period: 'all' | 'week') =>
    (await getBoard(t, slug, period).expect(200)).body.scores.map((e: BoardEntry) => [e.rank, e.initials, e.score]);
  const auditOf = async (scoreId: string) => (await t.db.query('SELECT action, target_type, reason, details, request_id FROM audit_log WHERE target_id = $1', [scoreId])).rows;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  it('answers 401 signed out and 403 FORBIDDEN to players and developers, removing nothing', async () => {
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 1);
    const played = await playAndScore(t, player, game.slug, 10);
    const path = `/api/admin/scores/${played.scoreId}/remove`;
    expect((await t.http().post(path).send({ reason: 'x' })).status).toBe(401);
    for (const cookie of [player.cookie, dev.cookie]) {
      const res = await t.http().post(path).set('Cookie', cookie).send({ reason: 'x' });
      expect([res.status, res.body.error]).toEqual([403, 'FORBIDDEN']);
    }
    const row = await t.db.query('SELECT removed_at FROM scores WHERE id = $1', [played.scoreId]);
    expect(row.rows[0].removed_at).toBeNull();
    expect(await auditOf(played.scoreId as string)).toEqual([]);
  });

  it('takes the score off both boards at once, the next best (and the player\'s next best) move up, the insertion stays paid and verifiable', async () => {
    const game = await publishGame(t, dev);
    const liveKey = (await createApiKey(t, dev, 'live')).key;
    const ada = await signUpVerifiedPlayer(t);
    const bob = await signUpVerifiedPlayer(t);
    await fundPlayer(t, ada, 10);
    await fundPlayer(t, bob, 10);
    const adaLow = await playAndScore(t, ada, game.slug, 100);
    await postInitials(t, ada, adaLow.sessionId, adaLow.scoreId as string, 'ADA').expect(200);
    const bobMid = await playAndScore(t, bob, game.slug, 500);
    await postInitials(t, bob, bobMid.sessionId, bobMid.scoreId as string, 'BOB').expect(200);
    const forged = await playAndScore(t, ada, game.slug, 900);
    // Both boards are read once, so this instance caches them: the removal must drop the cache.
    for (const period of ['all', 'week'] as const) {
      expect(await board(game.slug, period)).toEqual([[1, 'ADA', '900'], [2, 'BOB', '500'], [3, 'ADA', '100']]);
    }
    const balances = await t.db.query('SELECT player_id, balance::int AS balance FROM wallets ORDER BY player_id');

    const res = await admin.post(`/api/admin/scores/${forged.scoreId}/remove`, { reason: 'Impossible score.' }).expect(200);
    const stored = await t.db.query('SELECT removed_at, insertion_id FROM scores WHERE id = $1', [forged.scoreId]);
    expect(res.body).toEqual({ scoreId: forged.scoreId, removedAt: stored.rows[0].removed_at.toISOString() });
    for (const period of ['all', 'week'] as const) {
      expect(await board(game.slug, period)).toEqual([[1, 'BOB', '500'], [2, 'ADA', '100']]);
    }

    // The insertion stays paid: no wallet moved, and the developer can still verify it.
    expect((await t.db.query('SELECT player_id, balance::int AS balance FROM wallets ORDER BY player_id')).rows).toEqual(balances.rows);
    const verified = await t.http().get(`/api/v1/insertions/${stored.rows[0].insertion_id}`).set('Authorization', `Bearer ${liveKey}`).expect(200);
    expect(verified.body).toMatchObject({ valid: true, insertionId: stored.rows[0].insertion_id });

    // The admin's list keeps it, marked.
    const listed = (await admin.get(`/api/admin/games/${game.gameId}/scores`).expect(200)).body.scores;
    expect(listed.map((s: { score: string; removedAt: string | null }) => [s.score, s.removedAt])).toEqual([
      ['900', res.body.removedAt],
      ['500', null],
      ['100', null],
    ]);

    expect(await auditOf(forged.scoreId as string)).toEqual([
      { action: 'score.remove', target_type: 'score', reason: 'Impossible score.', details: { gameId: game.gameId }, request_id: res.headers['x-request-id'] },
    ]);
  });

  it('a repeat answers 200 with the first removedAt and records nothing more', async () => {
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 1);
    const played = await playAndScore(t, player, game.slug, 42);
    const first = await admin.post(`/api/admin/scores/${played.scoreId}/remove`, { reason: 'One.' }).expect(200);
    const again = await admin.post(`/api/admin/scores/${(played.scoreId as string).toUpperCase()}/remove`, { reason: 'Two.' }).expect(200);
    expect(again.body).toEqual(first.body);
    const concurrent = await Promise.all([1, 2, 3].map(() => admin.post(`/api/admin/scores/${played.scoreId}/remove`, { reason: 'Three.' })));
    for (const answer of concurrent) expect([answer.status, answer.body]).toEqual([200, first.body]);
    expect((await auditOf(played.scoreId as string)).map((e) => e.reason)).toEqual(['One.']);
  });

  it('a removed score no longer waits for initials', async () => {
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 1);
    const played = await playAndScore(t, player, game.slug, 77);
    expect(played.needsInitials).toBe(true);
    const pending = () => t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', player.cookie).expect(200);
    expect((await pending()).body.scores.map((s: { scoreId: string }) => s.scoreId)).toEqual([played.scoreId]);
    await admin.post(`/api/admin/scores/${played.scoreId}/remove`, { reason: 'Forged.' }).expect(200);
    expect((await pending()).body.scores).toEqual([]);
  });

  it('answers 404 NOT_FOUND for unknown scores, 400 for a missing, empty or long reason and long ids; nothing is audited', async () => {
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 1);
    const played = await playAndScore(t, player, game.slug, 5);
    const before = await t.db.query('SELECT count(*)::int AS n FROM audit_log');
    for (const [path, body, status] of [
      [`/api/admin/scores/${UNKNOWN_ID}/remove`, { reason: 'x' }, 404],
      ['/api/admin/scores/not-a-score/remove', { reason: 'x' }, 404],
      [`/api/admin/scores/${'a'.repeat(65)}/remove`, { reason: 'x' }, 400],
      [`/api/admin/scores/${played.scoreId}/remove`, {}, 400],
      [`/api/admin/scores/${played.scoreId}/remove`, { reason: '' }, 400],
      [`/api/admin/scores/${played.scoreId}/remove`, { reason: 'x'.repeat(201) }, 400],
      [`/api/admin/scores/${played.scoreId}/remove`, { reason: 'x', score: 1 }, 400],
    ] as [string, object, number][]) {
      const res = await admin.post(path, body);
      expect([path, res.status, res.body.error]).toEqual([path, status, status === 404 ? 'NOT_FOUND' : 'INVALID_REQUEST']);
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM audit_log')).rows).toEqual(before.rows);
    expect((await t.db.query('SELECT removed_at FROM scores WHERE id = $1', [played.scoreId])).rows[0].removed_at).toBeNull();
    await admin.post(`/api/admin/scores/${played.scoreId}/remove`, { reason: 'x'.repeat(200) }).expect(200);
  });
});
