import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Pool } from 'pg';
import request, { Test } from 'supertest';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  adminCookie,
  authCookieOf,
  createAchievement,
  createApiKey,
  createDeveloper,
  createGame,
  createWorldApp,
  DEFAULT_PASSWORD,
  publishGame,
  signUpPlayer,
  signUpVerifiedPlayer,
  uniqueEmail,
} from '../support/factories';
import type { OpenApiDoc } from '../support/fuzz';
import { fundPlayer, idempotencyKey, insertCoin, paidSession, postInitials, postScore, startSession } from '../support/play';
import { MAIN, startService } from '../support/process';
import { buildWorld, World } from '../support/world';

/**
 * Security tests mapped to the OWASP API Security Top 10 (2023). Each describe names its risk.
 * API7 (SSRF) does not apply: the service never fetches a URL it is given (entryUrl is only
 * rendered into the host page). API9 (inventory) is the OpenAPI snapshot test; API10 (unsafe
 * consumption) does not apply: the service calls no third-party API.
 */
describe('OWASP API Security Top 10 (2023)', () => {
  let t: TestApp;
  let w: World;

  beforeAll(async () => {
    t = await createWorldApp();
    w = await buildWorld(t);
  }, 120_000);
  afterAll(async () => t.close());

  /** A foreign id must be answered exactly like an unknown one: no existence oracle. */
  async function sameAsUnknown(send: (id: string) => Test, foreignId: string, status = 404): Promise<void> {
    const foreign = await send(foreignId);
    const unknown = await send(randomUUID());
    expect({ status: foreign.status, body: foreign.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(foreign.status).toBe(status);
  }

  describe('API1 broken object level authorisation: another owner’s id answers as an unknown id', () => {
    it('play sessions and scores of another player', async () => {
      const [a, b] = w.players;
      const as = (path: string, body?: object) => t.http().post(path).set('Cookie', a.user.cookie).send(body ?? {});
      await sameAsUnknown((id) => t.http().post(`/api/play/sessions/${id}/heartbeat`).set('Cookie', a.user.cookie), b.sessionId);
      await sameAsUnknown((id) => t.http().post(`/api/play/sessions/${id}/end`).set('Cookie', a.user.cookie), b.sessionId);
      const coinKey = idempotencyKey('bola');
      await sameAsUnknown((id) => as(`/api/play/sessions/${id}/insert-coin`, { idempotencyKey: coinKey }), b.sessionId);
      const scoreKey = idempotencyKey('bola');
      await sameAsUnknown((id) => as(`/api/play/sessions/${id}/score`, { score: 5, idempotencyKey: scoreKey }), b.sessionId);
      await sameAsUnknown((id) => as(`/api/play/sessions/${id}/score/initials`, { scoreId: b.scoreId, initials: 'BAD' }), b.sessionId);
      await sameAsUnknown((scoreId) => as(`/api/play/sessions/${a.sessionId}/score/initials`, { scoreId, initials: 'BAD' }), b.scoreId);
      await sameAsUnknown((id) => as(`/api/v1/sessions/${id}/achievements`, { key: w.studios[1].achievementKey }), b.sessionId);
      // Nothing happened to the other player's session or score.
      await t.http().post(`/api/play/sessions/${b.sessionId}/heartbeat`).set('Cookie', b.user.cookie).expect(200);
      const score = await t.db.query('SELECT initials FROM scores WHERE id = $1', [b.scoreId]);
      expect(score.rows[0].initials).not.toBe('BAD');
    });

    it('insertions and play sessions of another developer through the API key', async () => {
      const key = `Bearer ${w.studios[0].liveKey.key}`;
      const b = w.players[1];
      await sameAsUnknown((id) => t.http().get(`/api/v1/insertions/${id}`).set('Authorization', key), b.insertionId);
      const unknown = await t.http().get(`/api/v1/insertions/${randomUUID()}`).set('Authorization', key);
      expect(unknown.body.valid).toBe(false);
      await sameAsUnknown((id) => t.http().get(`/api/v1/sessions/${id}`).set('Authorization', key), b.sessionId);
      const scoreKey = idempotencyKey('bola');
      await sameAsUnknown((id) => t.http().post(`/api/v1/insertions/${id}/score`).set('Authorization', key).send({ score: 1, idempotencyKey: scoreKey }), b.insertionId);
      // The owner's key sees them.
      await t.http().get(`/api/v1/insertions/${b.insertionId}`).set('Authorization', `Bearer ${w.studios[1].testKey.key}`).expect(200);
    });

    it('games, versions, achievements and keys of another developer in the portal', async () => {
      const a = w.studios[0].dev.cookie;
      const b = w.studios[1];
      const get = (path: string) => t.http().get(path).set('Cookie', a);
      const post = (path: string, body: object = {}) => t.http().post(path).set('Cookie', a).send(body);
      const patch = (path: string, body: object) => t.http().patch(path).set('Cookie', a).send(body);
      await sameAsUnknown((id) => get(`/api/portal/games/${id}`), b.game.gameId);
      await sameAsUnknown((id) => patch(`/api/portal/games/${id}`, { title: 'Taken over' }), b.game.gameId);
      await sameAsUnknown((id) => get(`/api/portal/games/${id}/versions`), b.game.gameId);
      await sameAsUnknown((id) => post(`/api/portal/games/${id}/versions`, { label: 'evil', entryUrl: 'https://evil.example/' }), b.game.gameId);
      await sameAsUnknown((id) => post(`/api/portal/games/${id}/publish`, { versionId: b.game.versionId }), b.game.gameId);
      await sameAsUnknown((id) => post(`/api/portal/games/${id}/unpublish`), b.game.gameId);
      await sameAsUnknown((id) => get(`/api/portal/games/${id}/achievements`), b.game.gameId);
      await sameAsUnknown((id) => post(`/api/portal/games/${id}/achievements`, { key: 'evil', name: 'Evil', description: 'x', iconKey: 'skull' }), b.game.gameId);
      await sameAsUnknown((id) => patch(`/api/portal/games/${id}/achievements/${b.achievementKey}`, { name: 'Evil' }), b.game.gameId);
      await sameAsUnknown((id) => post(`/api/portal/games/${id}/achievements/${b.achievementKey}/retire`), b.game.gameId);
      await sameAsUnknown((id) => t.http().delete(`/api/portal/keys/${id}`).set('Cookie', a), b.liveKey.id);
      // Another developer's version on one's own game, or on a preview, is unknown too.
      await sameAsUnknown((id) => post(`/api/portal/games/${w.studios[0].game.gameId}/publish`, { versionId: id }), b.game.versionId, 404);
      await sameAsUnknown(
        (id) => t.http().post('/api/play/sessions').set('Cookie', a).send({ gameSlug: w.studios[0].game.slug, preview: true, versionId: id }),
        b.game.versionId,
      );
      // Nothing changed for the owner.
      const game = await t.http().get(`/api/portal/games/${b.game.gameId}`).set('Cookie', b.dev.cookie).expect(200);
      expect(game.body).toMatchObject({ status: 'published', title: `Game ${b.game.slug}` });
      await t.http().get(`/api/v1/insertions/${w.players[1].insertionId}`).set('Authorization', `Bearer ${b.liveKey.key}`).expect(200);
    });
  });

  describe('API2 broken authentication', () => {
    const playPath = () => `/api/play/sessions/${w.players[0].sessionId}/heartbeat`;
    const token = () => w.players[0].user.cookie.split('=')[1]!;

    it.each([
      ['tampered', (tk: string) => `auth_session=${tk.slice(0, -1)}${tk.endsWith('A') ? 'B' : 'A'}`],
      ['truncated', (tk: string) => `auth_session=${tk.slice(0, 10)}`],
      ['gapped chunks', (tk: string) => `auth_session.0=${tk.slice(0, 10)}; auth_session.2=${tk.slice(10)}`],
      ['oversized chunks', () => [0, 1, 2, 3].map((i) => `auth_session.${i}=${'Q'.repeat(2500)}`).join('; ')],
      ['empty', () => 'auth_session='],
      ['non-ASCII', () => 'auth_session=%E2%82%AC%00%FF'],
      ['bad percent-encoding', () => 'auth_session=%E0%A4%A'],
    ])('refuses a %s cookie with 401, never 500', async (_name, cookie) => {
      const res = await t.http().post(playPath()).set('Cookie', cookie(token()));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
    });

    it('accepts the cookie split into chunks in index order', async () => {
      const tk = token();
      const third = Math.ceil(tk.length / 3);
      const cookie = [0, 1, 2].map((i) => `auth_session.${i}=${tk.slice(i * third, (i + 1) * third)}`).join('; ');
      await t.http().post(playPath()).set('Cookie', cookie).expect(200);
    });

    it('refuses a signed-out cookie', async () => {
      const user = await signUpVerifiedPlayer(t);
      await t.http().get('/api/me').set('Cookie', user.cookie).expect(200);
      await t.http().post('/auth/logout').set('Cookie', user.cookie).expect(204);
      const res = await t.http().get('/api/me').set('Cookie', user.cookie);
      expect(res.status).toBe(401);
    });

    it.each([
      ['revoked', async () => {
        const dev = w.studios[1].dev;
        const key = await createApiKey(t, dev, 'live', 'soon revoked');
        await t.http().delete(`/api/portal/keys/${key.id}`).set('Cookie', dev.cookie).expect(204);
        return `Bearer ${key.key}`;
      }],
      ['unknown', async () => `Bearer svc_live_${'A'.repeat(43)}`],
      ['wrong prefix', async () => `Bearer ${w.studios[0].liveKey.key.replace('svc_live_', 'svc_prod_')}`],
      ['truncated', async () => `Bearer ${w.studios[0].liveKey.key.slice(0, 20)}`],
      ['tampered', async () => `Bearer ${w.studios[0].liveKey.key.slice(0, -1)}${w.studios[0].liveKey.key.endsWith('A') ? 'B' : 'A'}`],
      ['other scheme', async () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
      ['no credentials', async () => 'Bearer'],
      ['oversized', async () => `Bearer svc_live_${'x'.repeat(6000)}`],
    ])('refuses a %s API key with 401 and WWW-Authenticate', async (_name, header) => {
      const res = await t.http().get(`/api/v1/insertions/${w.players[0].insertionId}`).set('Authorization', await header());
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="arcade", error="invalid_token"');
    });

    it('answers wrong e-mail and wrong password with the same 401', async () => {
      const wrongPassword = await t.http().post('/auth/login').send({ email: w.players[1].user.email, password: 'not-the-password' });
      const unknownEmail = await t.http().post('/auth/login').send({ email: uniqueEmail('nobody'), password: 'not-the-password' });
      expect(wrongPassword.status).toBe(401);
      expect(wrongPassword.body).toEqual(unknownEmail.body);
    });
  });

  describe('API3 broken object property level authorisation', () => {
    it('refuses extra properties on every endpoint that takes a body', async () => {
      const doc: OpenApiDoc = (await t.http().get('/openapi.json').expect(200)).body;
      // Payment webhooks take the provider's own events, authenticated by their signature (purchases.e2e-spec.ts);
      // a thumbnail upload takes the image itself, which has no properties (game-face.e2e-spec.ts: JSON there is 415).
      const withBody = Object.entries(doc.paths)
        .filter(([path]) => !path.startsWith('/webhooks/') && path !== '/api/portal/games/{gameId}/thumbnail')
        .flatMap(([path, methods]) => Object.entries(methods).filter(([, op]) => op.requestBody).map(([method]) => ({ path, method })));
      expect(withBody.length).toBeGreaterThan(15);
      const idFor = (path: string, name: string): string =>
        ({ gameId: w.studios[0].game.gameId, versionId: w.studios[0].game.versionId, key: w.studios[0].achievementKey, userId: w.players[0].user.accountId, insertionId: w.players[0].insertionId })[name] ??
        (path.startsWith('/api/portal/keys') ? w.studios[0].testKey.id : w.players[0].sessionId);
      for (const { path, method } of withBody) {
        const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => idFor(path, name));
        const cookie = path.startsWith('/api/admin') ? w.admin.cookie : path.startsWith('/api/portal') ? w.studios[0].dev.cookie : w.players[0].user.cookie;
        const req = t.http()[method as 'post'](url).set('Cookie', cookie);
        if (path.startsWith('/api/v1/insertions')) req.set('Authorization', `Bearer ${w.studios[0].liveKey.key}`);
        const res = await req.send({ isAdmin: true, balance: 1000000 });
        expect({ path, method, status: res.status, error: res.body.error }).toEqual({ path, method, status: 400, error: 'INVALID_REQUEST' });
        expect(JSON.stringify(res.body.details)).toContain('isAdmin');
      }
    });

    it('never shows a password hash, a key hash or a full key after creation', async () => {
      const dev = w.studios[0].dev;
      const keys = await t.http().get('/api/portal/keys').set('Cookie', dev.cookie).expect(200);
      const text = JSON.stringify(keys.body);
      expect(text).not.toContain(w.studios[0].liveKey.key);
      expect(text).not.toMatch(/hash/i);
      const me = await t.http().get('/api/me').set('Cookie', dev.cookie).expect(200);
      expect(JSON.stringify(me.body)).not.toMatch(/hash|password/i);
    });
  });

  describe('API5 broken function level authorisation', () => {
    it('keeps admin, portal and key-only functions to their roles', async () => {
      const player = w.players[0].user.cookie;
      const id = w.players[1].user.accountId;
      for (const path of [`/api/admin/users/${id}/verify-email`, `/api/admin/games/${w.studios[0].game.gameId}/suspend`, `/api/admin/versions/${w.studios[0].game.versionId}/approve`]) {
        const res = await t.http().post(path).set('Cookie', player);
        expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 403, error: 'FORBIDDEN' });
      }
      const credit = await t.http().post(`/api/admin/wallets/${id}/credits`).set('Cookie', player).send({ coins: 100, reason: 'free', idempotencyKey: idempotencyKey('evil') });
      expect(credit.status).toBe(403);
      const portal = await t.http().post('/api/portal/games').set('Cookie', player).send({ slug: 'evil-game', title: 'Evil', coinsPerCredit: 1 });
      expect(portal.status).toBe(403);
      const trusted = await t.http().post(`/api/v1/insertions/${w.players[0].insertionId}/score`).set('Authorization', `Bearer ${w.studios[0].testKey.key}`).send({ score: 1, idempotencyKey: idempotencyKey('t') });
      expect(trusted.body.error).toBe('LIVE_KEY_REQUIRED');
      const cookieOnKeyEndpoint = await t.http().get(`/api/v1/insertions/${w.players[0].insertionId}`).set('Cookie', w.studios[0].dev.cookie);
      expect(cookieOnKeyEndpoint.status).toBe(401);
      const keyOnPlayerEndpoint = await t.http().post(`/api/play/sessions/${w.players[0].sessionId}/heartbeat`).set('Authorization', `Bearer ${w.studios[0].liveKey.key}`);
      expect(keyOnPlayerEndpoint.status).toBe(401);
    });

    it('refuses cross-site state changes (403 FORBIDDEN) before anything else happens', async () => {
      const before = await t.db.query('SELECT COUNT(*)::int AS n FROM insertions');
      const res = await t.http().post(`/api/play/sessions/${w.players[0].sessionId}/insert-coin`).set('Cookie', w.players[0].user.cookie).set('Origin', 'https://evil.example').send({ idempotencyKey: idempotencyKey('csrf') });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
      const site = await t.http().post(`/api/play/sessions/${w.players[0].sessionId}/end`).set('Cookie', w.players[0].user.cookie).set('Sec-Fetch-Site', 'cross-site');
      expect(site.status).toBe(403);
      expect((await t.db.query('SELECT COUNT(*)::int AS n FROM insertions')).rows).toEqual(before.rows);
    });
  });

  describe('API8 security misconfiguration: headers', () => {
    it('API answers: nosniff, no framing, no X-Powered-By, no CORS for foreign origins', async () => {
      for (const res of [
        await t.http().get('/api/games'),
        await t.http().get('/api/me'),
        await t.http().post('/api/play/sessions').send('{'),
        await t.http().get('/no/such/route'),
        await t.http().get('/openapi.json').set('Origin', 'https://evil.example'),
      ]) {
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    });

    it('pages: a content security policy that forbids framing by others, nosniff, no X-Powered-By', async () => {
      const slug = w.studios[0].game.slug;
      for (const [path, cookie] of [['/', undefined], ['/auth/login', undefined], [`/games/${slug}`, undefined], [`/play/${slug}`, w.players[0].user.cookie]] as const) {
        const req = t.http().get(path);
        if (cookie) req.set('Cookie', cookie);
        const res = await req;
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(res.headers['content-type']).toContain('text/html');
        const csp = res.headers['content-security-policy'] ?? '';
        expect(csp).toMatch(/frame-ancestors ('none'|'self')/);
        expect(csp).toMatch(/script-src|default-src/);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('errors carry no stack trace or SQL', async () => {
      const res = await t.http().post('/api/play/sessions').set('Cookie', w.players[0].user.cookie).set('Content-Type', 'application/json').send('{"gameSlug": ');
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+|SELECT|INSERT|node_modules/);
    });
  });

  describe('injection: SQL-looking input is stored and returned verbatim', () => {
    const SQLISH = ["Robert'); DROP TABLE x;--", "' OR '1'='1", '"; DELETE FROM wallets; --', '$1 \\ % _ \u0000x'.replace('\u0000', '')];

    it('in every string field a caller can write', async () => {
      for (const text of SQLISH) {
        const player = await signUpPlayer(t, { displayName: text.slice(0, 32) });
        const me = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
        expect(me.body.displayName).toBe(text.slice(0, 32));

        const dev = w.studios[0].dev;
        const game = await createGame(t, dev, { title: text });
        const readGame = await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).expect(200);
        expect(readGame.body.title).toBe(text);
        const version = await t.http().post(`/api/portal/games/${game.gameId}/versions`).set('Cookie', dev.cookie).send({ label: text.slice(0, 40), entryUrl: 'https://games.example.test/' }).expect(201);
        expect(version.body.label).toBe(text.slice(0, 40));
        await createAchievement(t, dev, game.gameId, { key: `k${SQLISH.indexOf(text)}`, name: text.slice(0, 40), description: text });
        const achievements = await t.http().get(`/api/portal/games/${game.gameId}/achievements`).set('Cookie', dev.cookie).expect(200);
        expect(JSON.stringify(achievements.body)).toContain(JSON.stringify(text).slice(1, -1));
        const key = await t.http().post('/api/portal/keys').set('Cookie', dev.cookie).send({ kind: 'test', name: text.slice(0, 40) }).expect(201);
        expect(key.body.name).toBe(text.slice(0, 40));

        await t.http().post(`/api/admin/wallets/${w.players[1].user.accountId}/credits`).set('Cookie', w.admin.cookie).send({ coins: 1, reason: text, idempotencyKey: idempotencyKey('sql') }).expect(201);
        const wallet = await t.http().get('/api/me/wallet').set('Cookie', w.players[1].user.cookie).expect(200);
        expect(wallet.body.entries[0].reason).toBe(text);
      }
      // Search-like inputs reach no query as SQL: unknown slugs and ids are just unknown.
      await t.http().get(`/api/games/${encodeURIComponent("x' OR '1'='1")}/scores`).expect(400);
      const res = await t.http().get(`/api/v1/insertions/${encodeURIComponent("' OR 1=1 --")}`).set('Authorization', `Bearer ${w.studios[0].liveKey.key}`);
      expect(res.status).toBe(404);
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    });
  });
});

describe('OWASP API4 unrestricted resource consumption', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({
      env: {
        RATE_LIMIT_LOGIN_PER_EMAIL: '3/60',
        RATE_LIMIT_SCORE_PER_SESSION: '2/60',
        RATE_LIMIT_INITIALS_PER_PLAYER: '2/60',
        RATE_LIMIT_DEVELOPER_PER_KEY: '3/60',
      },
    });
  }, 60_000);
  afterAll(async () => t.close());

  function expectLimited(res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }

  it('refuses a body over 65,536 bytes with 413 in the flat shape', async () => {
    const res = await t.http().post('/auth/login').set('Content-Type', 'application/json').send(JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(65_536) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });

  it('caps page sizes', async () => {
    const player = await signUpVerifiedPlayer(t);
    for (const path of ['/api/games?limit=101', '/api/me/wallet?limit=101', '/api/games?limit=0', '/api/me/wallet?limit=100000000000']) {
      const res = await t.http().get(path).set('Cookie', player.cookie);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error: 'INVALID_REQUEST' });
    }
  });

  it('rate limits login per e-mail', async () => {
    const user = await signUpVerifiedPlayer(t);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.http().post('/auth/login').send({ email: user.email, password: 'wrong-password' })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expectLimited(await t.http().post('/auth/login').send({ email: user.email, password: DEFAULT_PASSWORD }));
  });

  it('rate limits player scores per play session and initials per player', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const { sessionId } = await paidSession(t, player, game.slug);
    const first = await postScore(t, player, sessionId, 10).expect(200);
    t.clock.advance(520);
    await insertCoin(t, player, sessionId);
    await postScore(t, player, sessionId, 11).expect(200);
    t.clock.advance(520);
    await insertCoin(t, player, sessionId);
    expectLimited(await postScore(t, player, sessionId, 12));

    await postInitials(t, player, sessionId, first.body.scoreId, 'AAA').expect(200);
    await postInitials(t, player, sessionId, first.body.scoreId, 'BBB').expect(200);
    expectLimited(await postInitials(t, player, sessionId, first.body.scoreId, 'CCC'));
  });

  it('rate limits developer endpoints per API key', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const key = await createApiKey(t, dev, 'test');
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    const { insertionId } = await paidSession(t, player, game.slug);
    for (let i = 0; i < 3; i++) await t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${key.key}`).expect(200);
    expectLimited(await t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${key.key}`));
    // Another key of the same developer has its own budget.
    const other = await createApiKey(t, dev, 'test');
    await t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${other.key}`).expect(200);
  });
});

describe('no secret in any log line', () => {
  it('logs a full scenario at debug level without a password, a cookie token or an API key', async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    const databaseUrl = await createTestDatabase();
    const service = await startService({ DATABASE_URL: databaseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'debug' });
    const db = new Pool({ connectionString: databaseUrl, max: 2 });
    const secrets: string[] = [ADMIN_PASSWORD, DEFAULT_PASSWORD];
    try {
      const t: TestApp = { http: () => request(service.url), db, databaseUrl, app: undefined as never, clock: undefined as never, close: async () => undefined };
      const admin = await adminCookie(t);
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev, { coinsPerCredit: 1 });
      const live = await createApiKey(t, dev, 'live');
      const player = await signUpVerifiedPlayer(t, { password: 'a-very-secret-passphrase-42' });
      secrets.push('a-very-secret-passphrase-42', live.key);
      for (const cookie of [admin, dev.cookie, player.cookie]) secrets.push(cookie.split('=')[1]!);
      await fundPlayer(t, player, 5);
      const { sessionId } = await startSession(t, player, game.slug);
      const coin = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('log') }).expect(200);
      await t.http().get(`/api/v1/insertions/${coin.body.insertionId}`).set('Authorization', `Bearer ${live.key}`).expect(200);
      await t.http().post(`/api/v1/insertions/${coin.body.insertionId}/score`).set('Authorization', `Bearer ${live.key}`).send({ score: 99, idempotencyKey: idempotencyKey('log') }).expect(200);
      await t.http().get('/api/me').set('Cookie', `auth_session.0=${player.cookie.split('=')[1]!.slice(0, 8)}; auth_session.1=${player.cookie.split('=')[1]!.slice(8)}`).expect(200);
      // Failures log too: a wrong password, a bad key, a bad cookie.
      await t.http().post('/auth/login').send({ email: player.email, password: 'a-very-secret-passphrase-43' }).expect(401);
      secrets.push('a-very-secret-passphrase-43');
      await t.http().get(`/api/v1/insertions/${coin.body.insertionId}`).set('Authorization', `Bearer ${live.key}x`).expect(401);
      const login = await t.http().post('/auth/login').send({ email: player.email, password: 'a-very-secret-passphrase-42' }).expect(200);
      secrets.push(authCookieOf(login).split('=')[1]!);
      await t.http().post('/auth/logout').set('Cookie', authCookieOf(login)).expect(204);
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
      await db.end();
    }
    const log = service.output();
    expect(log.split('\n').length).toBeGreaterThan(20);
    expect(log).toContain('request completed'); // every request was logged
    for (const secret of secrets) expect(log.includes(secret) ? `secret found in the log: ${secret.slice(0, 6)}…` : 'clean').toBe('clean');
  }, 60_000);
});
