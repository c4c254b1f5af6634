import type { Response } from 'supertest';
import type { TestApp } from '../support/app';
import { createWorldApp, signUpPlayer } from '../support/factories';
import { idempotencyKey } from '../support/play';
import { buildWorld, World } from '../support/world';

function vary(res: Response): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

/** Issue 14: what browsers and caches between may keep. */
describe('caching', () => {
  let t: TestApp;
  let w: World;

  beforeAll(async () => {
    t = await createWorldApp();
    w = await buildWorld(t);
  });
  afterAll(async () => t.close());

  it("answers carrying a user's data had no Cache-Control: now no-store", async () => {
    const [s0] = w.studios;
    const [p0] = w.players;
    const player = p0.user.cookie;
    const answers: [string, Response][] = [
      ['GET /api/me', await t.http().get('/api/me').set('Cookie', player)],
      ['GET /api/me/wallet', await t.http().get('/api/me/wallet').set('Cookie', player)],
      ['GET /api/me/scores', await t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', player)],
      ['POST /api/play/sessions', await t.http().post('/api/play/sessions').set('Cookie', player).send({ gameSlug: s0.game.slug })],
      ['POST heartbeat', await t.http().post(`/api/play/sessions/${p0.sessionId}/heartbeat`).set('Cookie', player)],
      ['GET /api/games/{slug} signed in', await t.http().get(`/api/games/${s0.game.slug}`).set('Cookie', player)],
      ['GET /api/portal/games', await t.http().get('/api/portal/games').set('Cookie', s0.dev.cookie)],
      ['GET /api/portal/keys', await t.http().get('/api/portal/keys').set('Cookie', s0.dev.cookie)],
      ['POST /api/portal/keys', await t.http().post('/api/portal/keys').set('Cookie', s0.dev.cookie).send({ kind: 'test', name: 'cache' })],
      ['GET /api/portal/earnings', await t.http().get('/api/portal/earnings').set('Cookie', s0.dev.cookie)],
      ['GET /api/v1/insertions/{id}', await t.http().get(`/api/v1/insertions/${p0.insertionId}`).set('Authorization', `Bearer ${s0.liveKey.key}`)],
      ['GET /api/v1/sessions/{id}', await t.http().get(`/api/v1/sessions/${p0.sessionId}`).set('Authorization', `Bearer ${s0.testKey.key}`)],
      ['POST /auth/login', await t.http().post('/auth/login').send({ email: p0.user.email, password: p0.user.password })],
    ];
    for (const [what, res] of answers) {
      expect({ what, status: res.status < 300, cacheControl: res.headers['cache-control'] }).toEqual({ what, status: true, cacheControl: 'no-store' });
    }
    const signUp = await t.http().post('/auth/signup').send({ email: `cache-${idempotencyKey()}@example.test`, password: 'a-long-password', displayName: 'Cache' });
    expect(signUp.status).toBe(201);
    expect(signUp.headers['cache-control']).toBe('no-store');
  });

  it('every API error says Cache-Control: no-store, whichever layer answered it', async () => {
    const player = w.players[0].user.cookie;
    const errors: [number, Response][] = [
      [400, await t.http().post('/auth/login').set('Content-Type', 'application/json').send('{"email":')],
      [400, await t.http().get('/api/games?limit=0')],
      [401, await t.http().get('/api/me')],
      [401, await t.http().get(`/api/v1/sessions/${w.players[0].sessionId}`)],
      [403, await t.http().post('/api/play/sessions').set('Cookie', (await signUpPlayer(t)).cookie).send({ gameSlug: w.studios[0].game.slug })],
      [404, await t.http().get('/api/no/such/route')],
      [404, await t.http().get('/api/games/no-such-game/scores')],
      [413, await t.http().post('/auth/login').send({ email: 'x'.repeat(70_000), password: 'x' })],
      [415, await t.http().post('/auth/login').set('Content-Type', 'text/plain').send('hello')],
      [409, await t.http().post('/api/portal/games').set('Cookie', w.studios[0].dev.cookie).send({ slug: w.studios[0].game.slug, title: 'Taken', coinsPerCredit: 1 })],
      [410, await t.http().post(`/api/play/sessions/${w.players[0].sessionId}/end`).set('Cookie', player).then(() => t.http().post(`/api/play/sessions/${w.players[0].sessionId}/heartbeat`).set('Cookie', player))],
    ];
    for (const [status, res] of errors) {
      expect({ status: res.status, cacheControl: res.headers['cache-control'], error: typeof res.body.error }).toEqual({ status, cacheControl: 'no-store', error: 'string' });
    }
  });

  it('pages that differ per user had no Vary: Cookie: now every page says Vary: Cookie and no-store', async () => {
    const player = w.players[0].user.cookie;
    const pages: [string, Response][] = [
      ['/', await t.http().get('/')],
      ['/ signed in', await t.http().get('/').set('Cookie', player)],
      ['/games/{slug}', await t.http().get(`/games/${w.studios[0].game.slug}`)],
      ['/games/unknown (404 page)', await t.http().get('/games/no-such-game')],
      ['/play/{slug} signed out (redirect to sign in)', await t.http().get(`/play/${w.studios[0].game.slug}`)],
      ['/play/{slug} signed in', await t.http().get(`/play/${w.studios[0].game.slug}`).set('Cookie', player)],
      ['/auth/login', await t.http().get('/auth/login')],
      ['/developer/keys', await t.http().get('/developer/keys').set('Cookie', w.studios[0].dev.cookie)],
    ];
    for (const [what, res] of pages) {
      expect({ what, cacheControl: res.headers['cache-control'], varyCookie: vary(res).includes('cookie') }).toEqual({ what, cacheControl: 'no-store', varyCookie: true });
    }
  });

  it('public assets and the SDK keep their long cache, with a version in the path', async () => {
    const page = await t.http().get('/').expect(200);
    const links = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining([expect.stringMatching(/^\/assets\/pages\.[0-9a-f]{12}\.js$/), expect.stringMatching(/^\/assets\/arcade\.[0-9a-f]{12}\.css$/)]));
    for (const link of links) {
      const asset = await t.http().get(link).expect(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(vary(asset)).not.toContain('cookie');
      // The version is the content: the same bytes as the plain path.
      const plain = await t.http().get(link.replace(/\.[0-9a-f]{12}\./, '.')).expect(200);
      expect(plain.headers['cache-control']).toBe('public, max-age=300');
      expect(Buffer.compare(asset.body instanceof Buffer ? asset.body : Buffer.from(asset.text), plain.body instanceof Buffer ? plain.body : Buffer.from(plain.text))).toBe(0);
    }
    // Another version of a file is not this one: 404, not cached.
    const stale = await t.http().get('/assets/pages.000000000000.js').expect(404);
    expect(stale.headers['cache-control']).toBe('no-store');

    const sdk = await t.http().get('/sdk/v1.1.0.js').expect(200);
    expect(sdk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(vary(sdk)).not.toContain('cookie');
    expect((await t.http().get('/sdk/v1.js').expect(200)).headers['cache-control']).toBe('public, max-age=300');
  });

  it('the public board carries no user data and is not kept either', async () => {
    const board = await t.http().get(`/api/games/${w.studios[0].game.slug}/scores`).expect(200);
    expect(board.headers['cache-control']).toBe('no-store');
  });
});
