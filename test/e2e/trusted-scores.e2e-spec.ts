import type { TestApp } from '../support/app';
import { createApiKey, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, getBoard, idempotencyKey, paidSession, postInitials, postScore, postTrustedScore, startSession } from '../support/play';

type Player = Awaited<ReturnType<typeof signUpVerifiedPlayer>>;

describe('trusted scores: POST /api/v1/insertions/{insertionId}/score (spec §4.8)', () => {
  let t: TestApp;
  let dev: Developer;
  let liveKey: string;
  let game: { gameId: string; slug: string };

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
    liveKey = (await createApiKey(t, dev, 'live')).key;
    game = await publishGame(t, dev, { maxScore: 1_000_000 });
  });
  afterAll(async () => t.close());

  async function fundedPlayer(): Promise<Player> {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 30);
    return player;
  }

  it('saves a trusted score on a paid insertion, verified on the board', async () => {
    const player = await fundedPlayer();
    const { sessionId, insertionId } = await paidSession(t, player, game.slug);
    const res = await postTrustedScore(t, liveKey, insertionId, 4242).expect(200);
    expect(res.body).toEqual({
      scoreId: expect.any(String),
      saved: true,
      testMode: false,
      qualifies: true,
      replayed: false,
      rank: expect.any(Number),
      initials: null,
      needsInitials: true,
    });
    const { rows } = await t.db.query('SELECT insertion_id, play_session_id, player_id, score::text AS score, source FROM scores WHERE id = $1', [
      res.body.scoreId,
    ]);
    expect(rows[0]).toEqual({ insertion_id: insertionId, play_session_id: sessionId, player_id: player.playerId, score: '4242', source: 'trusted' });

    // The player is asked for initials on the host page, found through pendingInitials.
    const pending = await t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', player.cookie).expect(200);
    expect(pending.body.scores).toEqual([{ scoreId: res.body.scoreId, sessionId, gameSlug: game.slug, score: '4242', achievedAt: expect.any(String) }]);
    await postInitials(t, player, sessionId, res.body.scoreId, 'TRU').expect(200);
    const board = (await getBoard(t, game.slug).expect(200)).body.scores;
    expect(board).toEqual(expect.arrayContaining([expect.objectContaining({ initials: 'TRU', score: '4242', verified: true })]));
  });

  it('marks player-reported scores verified: false', async () => {
    const player = await fundedPlayer();
    const { sessionId } = await paidSession(t, player, game.slug);
    const res = await postScore(t, player, sessionId, 4243).expect(200);
    await postInitials(t, player, sessionId, res.body.scoreId, 'PLY').expect(200);
    const board = (await getBoard(t, game.slug).expect(200)).body.scores;
    expect(board).toEqual(expect.arrayContaining([expect.objectContaining({ initials: 'PLY', score: '4243', verified: false })]));
  });

  it('gives the player\'s saved initials to a trusted score at once', async () => {
    const player = await fundedPlayer();
    const first = await paidSession(t, player, game.slug);
    const own = await postScore(t, player, first.sessionId, 1).expect(200);
    await postInitials(t, player, first.sessionId, own.body.scoreId, 'SAV').expect(200);
    const second = await paidSession(t, player, game.slug);
    const res = await postTrustedScore(t, liveKey, second.insertionId, 999_999).expect(200);
    expect(res.body).toMatchObject({ saved: true, qualifies: true, rank: 1, initials: 'SAV', needsInitials: false });
  });

  it('works after the play session ended, with achievedAt the time of submission', async () => {
    const player = await fundedPlayer();
    const { sessionId, insertionId } = await paidSession(t, player, game.slug);
    await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
    const before = Date.now();
    const res = await postTrustedScore(t, liveKey, insertionId, 5).expect(200);
    const { rows } = await t.db.query('SELECT achieved_at FROM scores WHERE id = $1', [res.body.scoreId]);
    expect(rows[0].achieved_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('replays a retry with the same key; refuses another key (409) and another score with the same key (409)', async () => {
    const player = await fundedPlayer();
    const { insertionId } = await paidSession(t, player, game.slug);
    const key = idempotencyKey();
    const first = await postTrustedScore(t, liveKey, insertionId, 77, key).expect(200);
    expect((await postTrustedScore(t, liveKey, insertionId, 77, key).expect(200)).body).toEqual({ ...first.body, replayed: true });
    expect((await postTrustedScore(t, liveKey, insertionId, 78).expect(409)).body.error).toBe('INSERTION_ALREADY_SCORED');
    expect((await postTrustedScore(t, liveKey, insertionId, 78, key).expect(409)).body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM scores WHERE insertion_id = $1', [insertionId]);
    expect(rows[0].n).toBe(1);
  });

  it('refuses a trusted score on an insertion the player already scored (409), and a player score after a trusted one', async () => {
    const player = await fundedPlayer();
    const a = await paidSession(t, player, game.slug);
    await postScore(t, player, a.sessionId, 10).expect(200);
    expect((await postTrustedScore(t, liveKey, a.insertionId, 11).expect(409)).body.error).toBe('INSERTION_ALREADY_SCORED');
    const b = await paidSession(t, player, game.slug);
    await postTrustedScore(t, liveKey, b.insertionId, 12).expect(200);
    expect((await postScore(t, player, b.sessionId, 13).expect(409)).body.error).toBe('INSERTION_ALREADY_SCORED');
  });

  it('keeps keys per caller: a player and a developer may use the same key', async () => {
    const player = await fundedPlayer();
    const key = idempotencyKey('shared');
    const a = await paidSession(t, player, game.slug);
    await postScore(t, player, a.sessionId, 1, key).expect(200);
    const b = await paidSession(t, player, game.slug);
    expect((await postTrustedScore(t, liveKey, b.insertionId, 1, key).expect(200)).body.replayed).toBe(false);
  });

  it('refuses a score above the game\'s maxScore with 422 SCORE_OUT_OF_RANGE', async () => {
    const player = await fundedPlayer();
    const { insertionId } = await paidSession(t, player, game.slug);
    expect((await postTrustedScore(t, liveKey, insertionId, 1_000_001).expect(422)).body.error).toBe('SCORE_OUT_OF_RANGE');
    await postTrustedScore(t, liveKey, insertionId, 1_000_000).expect(200);
  });

  it('answers 403 LIVE_KEY_REQUIRED to a test key, before validation', async () => {
    const testKey = (await createApiKey(t, dev, 'test')).key;
    const player = await fundedPlayer();
    const { insertionId } = await paidSession(t, player, game.slug);
    expect((await postTrustedScore(t, testKey, insertionId, 1).expect(403)).body.error).toBe('LIVE_KEY_REQUIRED');
    const invalid = await t.http().post(`/api/v1/insertions/${insertionId}/score`).set('Authorization', `Bearer ${testKey}`).send({ score: -1 }).expect(403);
    expect(invalid.body.error).toBe('LIVE_KEY_REQUIRED');
    expect((await t.db.query('SELECT 1 FROM scores WHERE insertion_id = $1', [insertionId])).rowCount).toBe(0);
  });

  it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or revoked key', async () => {
    const path = '/api/v1/insertions/00000000-0000-4000-8000-000000000000/score';
    const body = { score: 1, idempotencyKey: idempotencyKey() };
    const missing = await t.http().post(path).send(body).expect(401);
    expect(missing.body.error).toBe('UNAUTHENTICATED');
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="arcade"');
    for (const key of ['nope', `svc_live_${'x'.repeat(40)}`]) {
      const res = await t.http().post(path).set('Authorization', `Bearer ${key}`).send(body).expect(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    const revoked = await createApiKey(t, dev, 'live', 'to revoke');
    await t.http().delete(`/api/portal/keys/${revoked.id}`).set('Cookie', dev.cookie).expect(204);
    expect((await t.http().post(path).set('Authorization', `Bearer ${revoked.key}`).send(body).expect(401)).body.error).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['a negative score', { score: -1 }],
    ['a fraction', { score: 0.5 }],
    ['a score above 2^53-1', { score: 9007199254740992 }],
    ['no idempotency key', { idempotencyKey: undefined }],
    ['an extra property', { playerRef: 'pr_x' }],
  ])('refuses %s with 400 INVALID_REQUEST', async (_name, patch) => {
    const res = await t
      .http()
      .post('/api/v1/insertions/00000000-0000-4000-8000-000000000000/score')
      .set('Authorization', `Bearer ${liveKey}`)
      .send({ score: 1, idempotencyKey: idempotencyKey(), ...patch })
      .expect(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
  });

  it('refuses an insertion id over 64 characters with 400', async () => {
    expect((await postTrustedScore(t, liveKey, 'a'.repeat(65), 1).expect(400)).body.error).toBe('INVALID_REQUEST');
  });

  it('answers 404 NOT_FOUND for unknown, test-mode and another developer\'s insertions', async () => {
    expect((await postTrustedScore(t, liveKey, '00000000-0000-4000-8000-000000000000', 1).expect(404)).body.error).toBe('NOT_FOUND');
    expect((await postTrustedScore(t, liveKey, 'test_0123456789abcdef', 1).expect(404)).body.error).toBe('NOT_FOUND');

    // A real test-mode insertion id from the developer's own preview session.
    const { sessionId, testMode } = await startSession(t, dev, game.slug, { preview: true });
    expect(testMode).toBe(true);
    const coin = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', dev.cookie).send({ idempotencyKey: idempotencyKey() }).expect(200);
    expect(coin.body.insertionId).toMatch(/^test_/);
    expect((await postTrustedScore(t, liveKey, coin.body.insertionId, 1).expect(404)).body.error).toBe('NOT_FOUND');

    const rival = await createDeveloper(t);
    const rivalKey = (await createApiKey(t, rival, 'live')).key;
    const player = await fundedPlayer();
    const { insertionId } = await paidSession(t, player, game.slug);
    expect((await postTrustedScore(t, rivalKey, insertionId, 1).expect(404)).body.error).toBe('NOT_FOUND');
    expect((await t.db.query('SELECT 1 FROM scores WHERE insertion_id = $1', [insertionId])).rowCount).toBe(0);
  });

  it('saves exactly one of 10 concurrent trusted scores on one insertion with different keys', async () => {
    const player = await fundedPlayer();
    const { insertionId } = await paidSession(t, player, game.slug);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => postTrustedScore(t, liveKey, insertionId, 500 + i)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM scores WHERE insertion_id = $1', [insertionId]);
    expect(rows[0].n).toBe(1);
  });
});

describe('trusted score rate limit per key (CONTRACT §12)', () => {
  it('answers 429 with Retry-After once the key used its allowance, and still replays', async () => {
    const t = await createWorldApp({ env: { RATE_LIMIT_DEVELOPER_PER_KEY: '2/60' } });
    try {
      const dev = await createDeveloper(t);
      const { key } = await createApiKey(t, dev, 'live');
      const game = await publishGame(t, dev);
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 10);
      const insertions = [];
      for (let i = 0; i < 3; i++) insertions.push((await paidSession(t, player, game.slug)).insertionId);
      const replayKey = idempotencyKey();
      await postTrustedScore(t, key, insertions[0], 1, replayKey).expect(200);
      await postTrustedScore(t, key, insertions[1], 1).expect(200);
      const limited = await postTrustedScore(t, key, insertions[2], 1).expect(429);
      expect(limited.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await postTrustedScore(t, key, insertions[0], 1, replayKey).expect(200)).body.replayed).toBe(true);
    } finally {
      await t.close();
    }
  });
});
