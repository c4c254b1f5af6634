import { TestApp } from '../support/app';
import { adminCookie, createApiKey, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { answerSchemaErrors } from '../support/openapi-schema';
import { fundPlayer, idempotencyKey, insertCoin, startSession } from '../support/play';

/** Spec §4.8 (first two endpoints), §2.2, §2.4; CONTRACT §11, §16.11, §16.14, §16.24. */
describe('developer API: GET /api/v1/insertions/{id} and GET /api/v1/sessions/{id}', () => {
  let t: TestApp;
  let dev: Developer;
  let liveKey: string;
  let testKey: string;
  let otherKey: string;
  let game: { gameId: string; slug: string; versionId: string };
  let player: Awaited<ReturnType<typeof signUpVerifiedPlayer>>;

  const get = (path: string, key?: string) => (key ? t.http().get(path).set('Authorization', `Bearer ${key}`) : t.http().get(path));

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
    game = await publishGame(t, dev, { coinsPerCredit: 2 });
    liveKey = (await createApiKey(t, dev, 'live')).key;
    testKey = (await createApiKey(t, dev, 'test')).key;
    const other = await createDeveloper(t);
    otherKey = (await createApiKey(t, other, 'live')).key;
    player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 20);
  });
  afterAll(async () => t.close());

  describe('verify an insertion', () => {
    it('answers the verification view to live and test keys of the game\'s developer', async () => {
      const session = await t.http().post('/api/play/sessions').set('Cookie', player.cookie).send({ gameSlug: game.slug }).expect(201);
      const insertionId = await insertCoin(t, player, session.body.sessionId);
      const row = await t.db.query('SELECT created_at FROM insertions WHERE id = $1', [insertionId]);
      const expected = {
        valid: true,
        insertionId,
        gameId: game.gameId,
        sessionId: session.body.sessionId,
        playerRef: session.body.player.ref,
        coins: 2,
        createdAt: row.rows[0].created_at.toISOString(),
        voidedAt: null,
      };
      expect((await get(`/api/v1/insertions/${insertionId}`, liveKey).expect(200)).body).toEqual(expected);
      expect((await get(`/api/v1/insertions/${insertionId}`, testKey).expect(200)).body).toEqual(expected);
    });

    it('answers 404 NOT_FOUND with valid: false for another developer\'s, unknown and test_ ids', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const insertionId = await insertCoin(t, player, sessionId);
      const foreign = await get(`/api/v1/insertions/${insertionId}`, otherKey).expect(404);
      expect(foreign.body).toEqual({ error: 'NOT_FOUND', message: expect.any(String), valid: false });
      expect((await get('/api/v1/insertions/00000000-0000-4000-8000-000000000000', liveKey).expect(404)).body).toMatchObject({ error: 'NOT_FOUND', valid: false });
      expect((await get('/api/v1/insertions/whatever', liveKey).expect(404)).body).toMatchObject({ error: 'NOT_FOUND', valid: false });

      const preview = await startSession(t, dev, game.slug, { preview: true });
      const res = await t.http().post(`/api/play/sessions/${preview.sessionId}/insert-coin`).set('Cookie', dev.cookie).send({ idempotencyKey: idempotencyKey() }).expect(200);
      expect(res.body.insertionId).toMatch(/^test_/);
      expect((await get(`/api/v1/insertions/${res.body.insertionId}`, liveKey).expect(404)).body).toMatchObject({ error: 'NOT_FOUND', valid: false });
    });

    it('answers 401 with WWW-Authenticate for a missing, malformed or unknown key, and 400 for an id over 64', async () => {
      const missing = await get('/api/v1/insertions/00000000-0000-4000-8000-000000000000').expect(401);
      expect(missing.body.error).toBe('UNAUTHENTICATED');
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="arcade"');
      const bad = await get('/api/v1/insertions/00000000-0000-4000-8000-000000000000', 'not-a-key').expect(401);
      expect(bad.headers['www-authenticate']).toContain('error="invalid_token"');
      await get(`/api/v1/insertions/00000000-0000-4000-8000-000000000000`, `svc_live_${'a'.repeat(40)}`).expect(401);
      expect((await get(`/api/v1/insertions/${'i'.repeat(65)}`, liveKey).expect(400)).body.error).toBe('INVALID_REQUEST');
      // the key is checked first (§16.14)
      await get(`/api/v1/insertions/${'i'.repeat(65)}`).expect(401);
    });
  });

  describe('session summary', () => {
    it('summarises an active session with its insertions, oldest first, and totalCoins', async () => {
      const session = await t.http().post('/api/play/sessions').set('Cookie', player.cookie).send({ gameSlug: game.slug }).expect(201);
      const sessionId = session.body.sessionId;
      const first = await insertCoin(t, player, sessionId);
      t.clock.advance(550);
      const second = await insertCoin(t, player, sessionId);
      const res = await get(`/api/v1/sessions/${sessionId}`, testKey).expect(200);
      // What a client generated from /openapi.json checks first.
      expect(await answerSchemaErrors(t, '/api/v1/sessions/{id}', 'get', 200, res.body)).toEqual([]);
      const row = await t.db.query('SELECT started_at, last_seen_at FROM play_sessions WHERE id = $1', [sessionId]);
      expect(res.body).toEqual({
        id: sessionId,
        gameId: game.gameId,
        gameVersionId: game.versionId,
        playerRef: session.body.player.ref,
        testMode: false,
        status: 'active',
        startedAt: row.rows[0].started_at.toISOString(),
        lastSeenAt: row.rows[0].last_seen_at.toISOString(),
        endedAt: null,
        expiresAt: new Date(row.rows[0].last_seen_at.getTime() + 1800 * 1000).toISOString(),
        totalCoins: 4,
        insertions: [
          { id: first, coins: 2, createdAt: expect.any(String), voidedAt: null },
          { id: second, coins: 2, createdAt: expect.any(String), voidedAt: null },
        ],
      });
      expect(Date.parse(res.body.insertions[0].createdAt)).toBeLessThan(Date.parse(res.body.insertions[1].createdAt));
    });

    it('lists a voided insertion with its voidedAt and leaves it out of totalCoins (CONTRACT §19.1), as the OpenAPI document describes', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const voided = await insertCoin(t, player, sessionId);
      t.clock.advance(550);
      const kept = await insertCoin(t, player, sessionId);
      const admin = await adminCookie(t);
      const voidAnswer = await t.http().post(`/api/admin/insertions/${voided}/void`).set('Cookie', admin).send({ reason: 'summary test', idempotencyKey: idempotencyKey('void') }).expect(200);
      for (const key of [liveKey, testKey]) {
        const res = await get(`/api/v1/sessions/${sessionId}`, key).expect(200);
        expect(res.body.totalCoins).toBe(2);
        expect(res.body.insertions).toEqual([
          { id: voided, coins: 2, createdAt: expect.any(String), voidedAt: voidAnswer.body.voidedAt },
          { id: kept, coins: 2, createdAt: expect.any(String), voidedAt: null },
        ]);
        expect(await answerSchemaErrors(t, '/api/v1/sessions/{id}', 'get', 200, res.body)).toEqual([]);
      }
    });

    it('shows an ended session as ended with its endedAt and a null expiresAt', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const ended = await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
      const res = await get(`/api/v1/sessions/${sessionId}`, liveKey).expect(200);
      expect(res.body).toMatchObject({ status: 'ended', endedAt: ended.body.endedAt, expiresAt: null, totalCoins: 0, insertions: [] });
    });

    it('shows the owner\'s test-mode sessions with testMode: true and no insertions (§16.11)', async () => {
      await fundPlayer(t, dev, 5);
      const preview = await startSession(t, dev, game.slug, { preview: true });
      await insertCoin(t, dev, preview.sessionId);
      const res = await get(`/api/v1/sessions/${preview.sessionId}`, testKey).expect(200);
      expect(res.body).toMatchObject({ id: preview.sessionId, testMode: true, status: 'active', totalCoins: 0, insertions: [] });
    });

    it('answers 404 NOT_FOUND for another developer\'s or an unknown session; 400 over 64; 401 without a key', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      expect((await get(`/api/v1/sessions/${sessionId}`, otherKey).expect(404)).body.error).toBe('NOT_FOUND');
      expect((await get('/api/v1/sessions/00000000-0000-4000-8000-000000000000', liveKey).expect(404)).body.error).toBe('NOT_FOUND');
      expect((await get('/api/v1/sessions/nope', liveKey).expect(404)).body.error).toBe('NOT_FOUND');
      expect((await get(`/api/v1/sessions/${'s'.repeat(65)}`, liveKey).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await get(`/api/v1/sessions/${sessionId}`).expect(401)).headers['www-authenticate']).toBe('Bearer realm="arcade"');
    });

    it('answers 401 once the key is revoked', async () => {
      const key = await createApiKey(t, dev, 'live', 'soon revoked');
      const { sessionId } = await startSession(t, player, game.slug);
      await get(`/api/v1/sessions/${sessionId}`, key.key).expect(200);
      await t.http().delete(`/api/portal/keys/${key.id}`).set('Cookie', dev.cookie).expect(204);
      await get(`/api/v1/sessions/${sessionId}`, key.key).expect(401);
    });
  });
});

describe('developer reads are limited per API key (RATE_LIMIT_DEVELOPER_PER_KEY)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_DEVELOPER_PER_KEY: '3/60' } });
  });
  afterAll(async () => t.close());

  it('answers 429 with Retry-After past the limit, per key; an unknown id still answers 404 first', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev);
    const one = await createApiKey(t, dev, 'live');
    const two = await createApiKey(t, dev, 'test');
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    const read = (key: string, id = sessionId) => t.http().get(`/api/v1/sessions/${id}`).set('Authorization', `Bearer ${key}`);
    for (let i = 0; i < 3; i++) await read(one.key).expect(200);
    const limited = await read(one.key).expect(429);
    expect(limited.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await read(one.key, '00000000-0000-4000-8000-000000000000').expect(404);
    expect((await t.http().get('/api/v1/insertions/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${one.key}`).expect(404)).body.valid).toBe(false);
    await read(two.key).expect(200);
  });
});
