import { createTestApp, TestApp } from '../support/app';
import { logIn } from '../support/factories';
import { DEMO } from '../../src/web/demo-seed.service';

describe('browser side: SDK files, pages, demo game (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('serves the SDK as JavaScript: v1.js briefly cached, v1.1.0.js immutable, both loadable from any origin', async () => {
    const latest = await t.http().get('/sdk/v1.js').expect(200);
    expect(latest.headers['content-type']).toMatch(/^text\/javascript/);
    expect(latest.headers['cache-control']).toBe('public, max-age=300');
    expect(latest.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(latest.text).toContain('1.1.0');
    expect(latest.text).toContain('ArcadeSDK');

    const pinned = await t.http().get('/sdk/v1.1.0.js').expect(200);
    expect(pinned.headers['content-type']).toMatch(/^text\/javascript/);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned.text).toBe(latest.text);
  });

  it('publishes the SDK types', async () => {
    const types = await t.http().get('/sdk/v1.d.ts').expect(200);
    expect(types.text).toContain('export interface ArcadeSDK');
    expect(types.text).toContain("'INVALID_KEY'");
  });

  it('serves the catalogue and the game page with a strict CSP that forbids framing', async () => {
    for (const path of ['/', '/games/coin-clicker', '/games/no-such-game']) {
      const page = await t.http().get(path).expect(path === '/games/no-such-game' ? 404 : 200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.text).toMatch(/<script src="\/assets\/pages\.[0-9a-f]{12}\.js" defer><\/script>/);
      expect(page.text).toContain('<header class="topbar">');
    }
    const missing = await t.http().get('/games/no-such-game').expect(404);
    expect(missing.text).toContain('<h1>Not found</h1>');
  });

  it('escapes what it puts in a page and answers 404 for a malformed slug', async () => {
    await t.http().get('/games/%3Cscript%3E').expect(404);
  });

  it('serves the page scripts and the stylesheet', async () => {
    for (const [path, type] of [['/assets/host.js', /javascript/], ['/assets/pages.js', /javascript/], ['/assets/arcade.css', /text\/css/]] as const) {
      const asset = await t.http().get(path).expect(200);
      expect(asset.headers['content-type']).toMatch(type);
    }
    await t.http().get('/assets/nope.js').expect(404);
  });

  it('sends signed-out players from the host page to the login page with a way back', async () => {
    const res = await t.http().get('/play/coin-clicker').expect(302);
    expect(res.headers.location).toBe('/auth/login?next=%2Fplay%2Fcoin-clicker');
  });

  it('renders the host page for a signed-in player: the entry URL framed under a CSP that allows only it', async () => {
    const cookie = await logIn(t, DEMO.player.email, DEMO.player.password);
    const page = await t.http().get('/play/coin-clicker').set('Cookie', cookie).expect(200);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('data-entry-url="/demo-games/coin-clicker/"');
    expect(page.text).toContain('data-preview="false"');
    expect(page.text).toMatch(/<script src="\/assets\/host\.[0-9a-f]{12}\.js" defer><\/script>/);
    for (const id of ['balance', 'message', 'celebration', 'initials-input', 'initials-submit']) expect(page.text).toContain(`data-testid="${id}"`);

    for (const path of ['/play/no-such-game', '/play/NOT_A_SLUG']) {
      const missing = await t.http().get(path).set('Cookie', cookie).expect(404);
      expect(missing.text).toContain('<h1>Not found</h1>');
    }
  });

  it('lets the owner preview the game, and nobody else', async () => {
    const developer = await logIn(t, DEMO.developer.email, DEMO.developer.password);
    const preview = await t.http().get('/play/coin-clicker?preview=1').set('Cookie', developer).expect(200);
    expect(preview.text).toContain('data-preview="true"');
    const player = await logIn(t, DEMO.player.email, DEMO.player.password);
    const notOwner = await t.http().get('/play/coin-clicker?preview=1').set('Cookie', player).expect(200);
    expect(notOwner.text).toContain('data-preview="false"');
  });

  it('serves the demo game as static files that only our own pages may frame', async () => {
    await t.http().get('/demo-games/coin-clicker').expect(301).expect('location', '/demo-games/coin-clicker/');
    const index = await t.http().get('/demo-games/coin-clicker/').expect(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.text).toContain('<script src="/sdk/v1.js"></script>');
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(index.headers['content-security-policy']).toContain("default-src 'none'");
    const script = await t.http().get('/demo-games/coin-clicker/game.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).not.toMatch(/fetch\(|XMLHttpRequest/);
    await t.http().get('/demo-games/coin-clicker/missing.js').expect(404);
    await t.http().get('/demo-games/other-game/').expect(404);
  });
});
