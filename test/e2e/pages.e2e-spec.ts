/**
 * The page rules of CONTRACT §17 and §17.1 over HTTP: sign-in redirects with `next`, the HTML
 * 404 page for unknown and foreign resources and missing roles, the header by role.
 */
import { TestApp } from '../support/app';
import { fundPlayer } from '../support/play';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminCookie, createDeveloper, createGame, createWorldApp, Developer, logIn, signUpPlayer, SignedUpUser } from '../support/factories';

describe('pages: who sees what (CONTRACT §17)', () => {
  let t: TestApp;
  let player: SignedUpUser;
  let dev: Developer;
  let otherDev: Developer;
  let foreignGame: { gameId: string; slug: string; versionId: string };

  beforeAll(async () => {
    t = await createWorldApp();
    player = await signUpPlayer(t, { verified: true, displayName: 'Plain Player' });
    dev = await createDeveloper(t, { displayName: 'Page Dev' });
    otherDev = await createDeveloper(t, { displayName: 'Other Dev' });
    foreignGame = await createGame(t, otherDev, { title: 'Secret Project Zeta' });
  });

  afterAll(async () => {
    await t.close();
  });

  function expectNotFoundPage(res: { status: number; headers: Record<string, string>; text: string }): void {
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<h1>Not found</h1>');
    expect(res.text).toContain('<header class="topbar">');
  }

  it('sends a signed-out visitor of every page area to sign in, with the way back', async () => {
    for (const path of ['/me', '/developer', '/developer/keys', '/developer/earnings', '/developer/webhooks', '/developer/webhooks/x', `/developer/games/${foreignGame.gameId}`, '/developer/nope', '/admin', '/checkout/abc', '/me/nope?x=1']) {
      const res = await t.http().get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 302 });
      expect(res.headers.location).toBe(`/auth/login?next=${encodeURIComponent(path)}`);
    }
  });

  it('answers the 404 page for every developer page but /developer to an account without role developer', async () => {
    const home = await t.http().get('/developer').set('Cookie', player.cookie).expect(200);
    expect(home.text).toContain('Become a developer');
    for (const path of ['/developer/keys', '/developer/earnings', '/developer/webhooks', '/developer/webhooks/x', `/developer/games/${foreignGame.gameId}`, '/developer/whatever']) {
      expectNotFoundPage(await t.http().get(path).set('Cookie', player.cookie));
    }
  });

  it('answers the 404 page, with nothing of the game, for another developer\'s game and for unknown ids', async () => {
    for (const id of [foreignGame.gameId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'x'.repeat(65)]) {
      const res = await t.http().get(`/developer/games/${id}`).set('Cookie', dev.cookie);
      expectNotFoundPage(res);
      expect(res.text).not.toContain('Secret Project Zeta');
    }
  });

  it('answers the 404 page to non-admins on /admin and for unknown paths under the page areas', async () => {
    for (const path of ['/admin', '/admin/anything', '/me/anything', '/checkout/anything', '/developer/games', '/me?before=abc', '/me?before=1&before=2']) {
      expectNotFoundPage(await t.http().get(path).set('Cookie', player.cookie));
    }
  });

  it('keeps the JSON 404 of §13 for other unknown paths and for non-GET requests', async () => {
    const other = await t.http().get('/no-such-page').set('Cookie', player.cookie).expect(404);
    expect(other.body).toMatchObject({ error: 'NOT_FOUND' });
    const post = await t.http().post('/developer/nope').set('Cookie', player.cookie).send({}).expect(404);
    expect(post.body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('sends a signed-in visitor of the sign-in page on to `next` when it is a path here, else to /me', async () => {
    const cases: [string, string][] = [
      ['/auth/login', '/me'],
      ['/auth/login?next=%2Fdeveloper%2Fkeys', '/developer/keys'],
      ['/auth/login?next=%2F%2Fevil.example%2F', '/me'],
      ['/auth/login?next=%2F%5Cevil.example', '/me'],
      ['/auth/login?next=https%3A%2F%2Fevil.example%2F', '/me'],
    ];
    for (const [path, location] of cases) {
      const res = await t.http().get(path).set('Cookie', player.cookie).expect(302);
      expect(res.headers.location).toBe(location);
    }
    const signedOut = await t.http().get('/auth/login?next=%2F%2Fevil.example%2F').expect(200);
    expect(signedOut.text).toContain('data-next="/me"');
    expect(signedOut.text).not.toContain('evil.example');
  });

  it('shows the Admin link to admins only, and Sign out or Sign in', async () => {
    const asAdmin = await t.http().get('/').set('Cookie', await adminCookie(t)).expect(200);
    expect(asAdmin.text).toContain('href="/admin"');
    expect(asAdmin.text).toContain('Sign out');
    const asPlayer = await t.http().get('/').set('Cookie', player.cookie).expect(200);
    expect(asPlayer.text).not.toContain('href="/admin"');
    expect(asPlayer.text).toContain('Plain Player');
    const signedOut = await t.http().get('/').expect(200);
    expect(signedOut.text).toContain('>Sign in</a>');
    expect(signedOut.text).not.toContain('Sign out');
  });

  it('previews a named version for its owner only (/play/{slug}?version=)', async () => {
    const game = await createGame(t, dev, { entryUrl: 'https://games.example.test/v1/index.html' });
    const second = await t.http().post(`/api/portal/games/${game.gameId}/versions`).set('Cookie', dev.cookie).send({ label: '2.0.0', entryUrl: 'https://v2.example.test/index.html' }).expect(201);
    const page = await t.http().get(`/play/${game.slug}?version=${second.body.versionId}`).set('Cookie', dev.cookie).expect(200);
    expect(page.text).toContain('data-preview="true"');
    expect(page.text).toContain(`data-version-id="${second.body.versionId}"`);
    expect(page.text).toContain('data-entry-url="https://v2.example.test/index.html"');
    expect(page.headers['content-security-policy']).toContain('frame-src https://v2.example.test');
    // Another game's version: the 404 page; anyone else: as without the query (an unpublished game: 404).
    expectNotFoundPage(await t.http().get(`/play/${game.slug}?version=${foreignGame.versionId}`).set('Cookie', dev.cookie));
    expectNotFoundPage(await t.http().get(`/play/${game.slug}?version=${second.body.versionId}`).set('Cookie', player.cookie));
    const adminPage = await t.http().get(`/play/${game.slug}?version=${second.body.versionId}`).set('Cookie', await logIn(t, ADMIN_EMAIL, ADMIN_PASSWORD)).expect(200);
    expect(adminPage.text).toContain(`data-version-id="${second.body.versionId}"`);
  });

  it('/me: the facts, wallet history 50 a page with "Older", another wallet\'s entry id the 404 page', async () => {
    const rich = await signUpPlayer(t, { verified: true, displayName: 'Rich Player' });
    for (let i = 0; i < 51; i++) await fundPlayer(t, rich, 1);
    const first = await t.http().get('/me').set('Cookie', rich.cookie).expect(200);
    expect(first.text).toContain('<h1>Rich Player</h1>');
    for (const term of ['Level', 'XP', 'XP to next level', 'Balance', 'Initials']) expect(first.text).toContain(`<dt>${term}</dt>`);
    expect(first.text).toContain('<dt>Balance</dt><dd>51</dd>');
    expect(first.text).toContain('<dt>Initials</dt><dd>—</dd>');
    expect(first.text).toContain('<dt>XP to next level</dt><dd>100</dd>');
    expect(first.text).toContain('<caption>Wallet history</caption>');
    expect(first.text).toMatch(/<caption[^>]*>Purchases<\/caption>/);
    const rows = (html: string) => html.split('<caption>Wallet history</caption>')[1]!.split('</table>')[0]!.match(/<tr>/g)!.length - 1;
    expect(rows(first.text)).toBe(50);
    const older = /href="(\/me\?before=\d+)">Older</.exec(first.text)?.[1];
    expect(older).toBeDefined();
    const second = await t.http().get(older!).set('Cookie', rich.cookie).expect(200);
    expect(rows(second.text)).toBe(1);
    expect(second.text).not.toContain('>Older<');
    // Another player's wallet entry as `before`: the 404 page, nothing of that wallet.
    expectNotFoundPage(await t.http().get(older!).set('Cookie', player.cookie));
  });

  it('/developer/games/{gameId} and /developer/earnings for the owner; another developer\'s game the 404 page', async () => {
    const game = await createGame(t, dev, { title: 'Owned Game' });
    const page = await t.http().get(`/developer/games/${game.gameId}`).set('Cookie', dev.cookie).expect(200);
    expect(page.text).toContain('<h1>Owned Game</h1>');
    for (const caption of ['Versions', 'Achievements']) expect(page.text).toMatch(new RegExp(`<caption[^>]*>${caption}</caption>`));
    expect(page.text).toContain(`href="/play/${game.slug}?version=${game.versionId}"`);
    const earnings = await t.http().get(`/developer/earnings?gameId=${game.gameId}`).set('Cookie', dev.cookie).expect(200);
    expect(earnings.text).toContain('<caption>Earnings</caption>');
    expect(earnings.text).toContain('<caption>Daily earnings</caption>');
    expect(earnings.text).toMatch(/<svg role="img" aria-label="Daily earnings, last 30 days, Owned Game/);
    expectNotFoundPage(await t.http().get(`/developer/earnings?gameId=${foreignGame.gameId}`).set('Cookie', dev.cookie));
    expect((await t.http().get('/developer/earnings?gameId=').set('Cookie', dev.cookie).expect(200)).text).toContain('aria-label="Daily earnings, last 30 days, all games');
  });
});
