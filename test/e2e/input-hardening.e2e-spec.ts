import type { TestApp } from '../support/app';
import { createDeveloper, createGame, createWorldApp, DEFAULT_PASSWORD, logIn, signUpPlayer, signUpVerifiedPlayer, unique, uniqueEmail } from '../support/factories';
import { pendingPurchase } from '../support/payments';

/**
 * Web and input findings of issue 26: redirect targets are checked after normalisation (item 8),
 * entryUrl hosts are real host names or IP literals (item 11), look-alike e-mails and display
 * names are refused or folded (item 14).
 */
describe('input hardening (issue 26)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
  });

  afterAll(async () => {
    await t.close();
  });

  /** Every form the probe tried: each one normalises to `//host` or `/\host`. */
  const OFF_SITE = [
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2e//evil.example',
    '/x/..//evil.example',
    '/x/%2e%2e//evil.example',
    '/./\\evil.example',
    '/.\\/evil.example',
    '/x/../\\evil.example/',
    '/.//evil.example/path?q=1#h',
  ];

  /** Where a browser goes when it follows `location` from this service. */
  function hostOf(location: string): string {
    return new URL(location, 'http://arcade.test').host;
  }

  describe('open redirect (item 8)', () => {
    it.each(OFF_SITE)('a signed-in visitor of /auth/login?next=%s stays on this origin (/me)', async (next) => {
      const player = await signUpPlayer(t);
      const res = await t.http().get('/auth/login').query({ next }).set('Cookie', player.cookie).expect(302);
      expect(res.headers.location).toBe('/me');
    });

    it('the sign-in page never carries an off-site target to its forms', async () => {
      for (const next of OFF_SITE) {
        const page = await t.http().get('/auth/login').query({ next }).expect(200);
        expect(page.text).toContain('data-next="/me"');
        expect(page.text).not.toContain('evil.example');
      }
    });

    it('keeps paths on this origin, however they are spelled', async () => {
      const player = await signUpPlayer(t);
      for (const [next, location] of [
        ['/play/coin-clicker', '/play/coin-clicker'],
        ['/x/../developer/keys', '/developer/keys'],
        ['/games/x?period=week#top', '/games/x?period=week#top'],
        ['/%2f/evil.example', '/%2f/evil.example'],
      ]) {
        const res = await t.http().get('/auth/login').query({ next }).set('Cookie', player.cookie).expect(302);
        expect(res.headers.location).toBe(location);
        expect(hostOf(res.headers.location as string)).toBe('arcade.test');
      }
    });

    it("the checkout page's `return` link follows the same rule", async () => {
      const player = await signUpVerifiedPlayer(t);
      const purchaseId = await pendingPurchase(t, player);
      for (const back of OFF_SITE) {
        const page = await t.http().get(`/checkout/${purchaseId}`).query({ return: back }).set('Cookie', player.cookie).expect(200);
        expect(page.text).not.toContain('evil.example');
        expect(page.text).toContain('href="/me"');
      }
      const home = await t.http().get(`/checkout/${purchaseId}`).query({ return: '/play/some-game' }).set('Cookie', player.cookie).expect(200);
      expect(home.text).toContain('href="/play/some-game"');
    });
  });

  describe('entryUrl hosts (item 11)', () => {
    let dev: { cookie: string };
    let gameId: string;
    let slug: string;

    beforeAll(async () => {
      dev = await createDeveloper(t);
      ({ gameId, slug } = await createGame(t, dev));
    });

    const addVersion = (entryUrl: string) => t.http().post(`/api/portal/games/${gameId}/versions`).set('Cookie', dev.cookie).send({ label: unique('v').slice(0, 40), entryUrl });

    it.each([
      ['a semicolon (a second CSP directive)', "https://games.example;script-src 'unsafe-inline'/"],
      ['a semicolon', 'https://a;b.example/'],
      ['a comma (a second CSP policy)', 'https://a,b.example/'],
      ['a wildcard', 'https://*.example/'],
      ['a lone wildcard', 'http://*/'],
      ['an underscore', 'https://games_example.test/'],
      ['a quote', "https://it's.example/"],
      ['an equals sign', 'https://a=b.example/'],
      ['a user and password', 'https://user:secret@games.example.test/'],
      ['a user', 'https://user@games.example.test/'],
      ['a label beginning with a hyphen', 'https://-games.example.test/'],
      ['an empty label', 'https://games..example.test/'],
    ])('refuses a host with %s: 400 INVALID_REQUEST naming the entry URL', async (_what, entryUrl) => {
      const res = await addVersion(entryUrl).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.message).toContain('Entry URL: ');
      const { rows } = await t.db.query('SELECT 1 FROM game_versions WHERE entry_url = $1', [entryUrl]);
      expect(rows).toHaveLength(0);
    });

    it.each([
      ['a host name and port', 'https://games.example.test:8443/coin/index.html', 'https://games.example.test:8443'],
      ['an IPv4 host and port', 'http://127.0.0.1:8080/game/', 'http://127.0.0.1:8080'],
      ['an IPv6 host', 'http://[::1]:8080/game/', 'http://[::1]:8080'],
      ['a single-label host', 'http://localhost:4000/', 'http://localhost:4000'],
      ['an internationalised host (punycode after parsing)', 'https://bücher.example/spiel/', 'https://xn--bcher-kva.example'],
    ])('accepts %s, and the play page frames exactly its origin', async (_what, entryUrl, origin) => {
      const created = await addVersion(entryUrl).expect(201);
      expect(created.body.entryUrl).toBe(entryUrl);
      const preview = await t.http().get(`/play/${slug}`).query({ version: created.body.versionId }).set('Cookie', dev.cookie).expect(200);
      expect(preview.headers['content-security-policy']).toMatch(new RegExp(`frame-src ${origin.replace(/[.[\]]/g, '\\$&')}(;|$)`));
    });
  });

  describe('look-alike accounts (item 14)', () => {
    const signUp = (body: Record<string, unknown>) => t.http().post('/auth/signup').send({ password: DEFAULT_PASSWORD, displayName: 'Ada', ...body });

    it.each([
      ['a zero-width space', '\u200b'],
      ['a right-to-left override', '\u202e'],
      ['a zero-width joiner', '\u200d'],
      ['a byte-order mark', '\ufeff'],
      ['a soft hyphen', '\u00ad'],
      ['a Hangul filler', '\u3164'],
    ])('refuses %s in an e-mail: 400 INVALID_REQUEST naming the e-mail address, no account', async (_what, invisible) => {
      const name = unique('look');
      const email = `${name}${invisible}x@example.test`;
      const res = await signUp({ email }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.message).toContain('E-mail address: ');
      const { rows } = await t.db.query('SELECT 1 FROM accounts WHERE email LIKE $1', [`${name}%`]);
      expect(rows).toHaveLength(0);
    });

    it.each([
      ['a zero-width space', 'Ada\u200b'],
      ['a right-to-left override', '\u202eadA'],
      ['a control character', 'Ada\u0007'],
      ['only a Hangul filler', '\u3164'],
    ])('refuses %s in a display name, wherever one is set', async (_what, displayName) => {
      const signup = await signUp({ email: uniqueEmail(), displayName }).expect(400);
      expect(signup.body).toMatchObject({ error: 'INVALID_REQUEST' });
      expect(signup.body.message).toContain('Display name: ');

      const unlinked = await signUpPlayer(t, { linked: false, verified: true });
      const link = await t.http().post('/api/me/player').set('Cookie', unlinked.cookie).send({ displayName }).expect(400);
      expect(link.body).toMatchObject({ error: 'INVALID_REQUEST' });
      expect(link.body.message).toContain('Display name: ');

      const becomeDeveloper = await t.http().post('/api/portal/developer').set('Cookie', unlinked.cookie).send({ displayName }).expect(400);
      expect(becomeDeveloper.body).toMatchObject({ error: 'INVALID_REQUEST' });
      expect(becomeDeveloper.body.message).toContain('Display name: ');
    });

    it('keeps ordinary non-ASCII names and addresses', async () => {
      const res = await signUp({ email: `${unique('zoë')}@example.test`, displayName: 'Zoë 李 🎮' }).expect(201);
      expect(res.body.user.displayName).toBe('Zoë 李 🎮');
    });

    it('folds compatibility forms (NFKC): a fullwidth spelling is the same account', async () => {
      const name = unique('player');
      const fullwidth = (s: string) => s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41));
      const plain = await signUpPlayer(t, { email: `${name}@example.test` });

      const clash = await signUp({ email: `${fullwidth('p')}${name.slice(1)}@example.test` }).expect(409);
      expect(clash.body.error).toBe('EMAIL_TAKEN');

      const cookie = await logIn(t, `${fullwidth(name.slice(0, 6))}${name.slice(6)}@example.test`, DEFAULT_PASSWORD);
      const me = await t.http().get('/api/me').set('Cookie', cookie).expect(200);
      expect(me.body.id).toBe(plain.accountId);

      // Signed up in the fullwidth form: stored, shown and found as the folded address.
      const other = unique('other');
      const created = await signUp({ email: `${fullwidth('ot')}${other.slice(2)}@example.test` }).expect(201);
      expect(created.body.user.email).toBe(`${other}@example.test`);
      await signUp({ email: `${other}@example.test` }).expect(409);
      // A fullwidth domain is no address at all (nothing made), never a second account.
      const domain = await signUp({ email: `${other}@ｅｘａｍｐｌｅ.test` });
      expect([400, 409]).toContain(domain.status);
      const { rows } = await t.db.query('SELECT count(*)::int AS n FROM accounts WHERE email = $1', [`${other}@example.test`]);
      expect(rows[0].n).toBe(1);
    });
  });
});
