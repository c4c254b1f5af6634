import { createHash } from 'node:crypto';
import { MailService } from '../../src/modules/mail';
import { createTestApp, TestApp } from '../support/app';
import { AuthProbeModule } from '../support/auth-probe';
import { authCookieOf, createWorldApp, DEFAULT_PASSWORD, logIn, signUpPlayer, uniqueEmail } from '../support/factories';

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const header = res.headers['set-cookie'];
  return Array.isArray(header) ? header : header ? [String(header)] : [];
}

function tokenOf(cookie: string): string {
  return cookie.slice('auth_session='.length);
}

describe('accounts: sign-up, login, logout, the auth cookie (CONTRACT §2)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ imports: [AuthProbeModule] });
  });
  afterAll(async () => t.close());

  describe('POST /auth/signup', () => {
    it('creates an unverified, linked account, signs it in and answers 201 { user }', async () => {
      const email = uniqueEmail();
      const res = await t.http().post('/auth/signup').send({ email, password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
      expect(res.body).toEqual({
        user: { id: expect.any(String), email, emailVerified: false, displayName: 'Ada', roles: ['player'], linked: true },
      });
      const me = await t.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
      expect(me.body.id).toBe(res.body.user.id);
      const wallets = await t.db.query('SELECT w.id FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1', [res.body.user.id]);
      expect(wallets.rowCount).toBe(1);
    });

    it('sets the cookie HttpOnly, SameSite=Lax, Path=/ and not Secure on an http origin', async () => {
      const res = await t.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
      const cookie = setCookies(res).find((c) => c.startsWith('auth_session='))!;
      expect(cookie).toMatch(/^auth_session=[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/; HttpOnly(;|$)/);
      expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).not.toMatch(/Secure/i);
    });

    it('stores the password as an argon2id hash with OWASP\'s parameters and only the SHA-256 of the login token', async () => {
      const password = 'a very secret password';
      // Production's cost, on the suite's database (the suite's app hashes at the test-only cost).
      const owasp = await createTestApp({ databaseUrl: t.databaseUrl, env: { PASSWORD_HASH_COST: 'owasp' } });
      try {
        const res = await owasp.http().post('/auth/signup').send({ email: uniqueEmail(), password, displayName: 'Ada' }).expect(201);
        const token = tokenOf(authCookieOf(res));
        const account = await t.db.query('SELECT password_hash FROM accounts WHERE id = $1', [res.body.user.id]);
        expect(account.rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
        expect(account.rows[0].password_hash).not.toContain(password);
        const sessions = await t.db.query('SELECT token_hash FROM login_sessions WHERE account_id = $1', [res.body.user.id]);
        expect(sessions.rows).toEqual([{ token_hash: createHash('sha256').update(token).digest() }]);
        const dump = await t.db.query("SELECT count(*)::int AS n FROM login_sessions s WHERE s::text LIKE '%' || $1 || '%'", [token]);
        expect(dump.rows[0].n).toBe(0);
      } finally {
        await owasp.close();
      }
    });

    it('with linkPlayer false creates an account without player or wallet', async () => {
      const res = await t.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada', linkPlayer: false }).expect(201);
      expect(res.body.user).toMatchObject({ linked: false, roles: [] });
      const me = await t.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
      expect(me.body).toMatchObject({ linked: false, xp: 0, level: 1, balance: null, initials: null });
    });

    it('answers 409 EMAIL_TAKEN for a taken e-mail, whatever its case', async () => {
      const email = uniqueEmail();
      await t.http().post('/auth/signup').send({ email, password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
      const res = await t.http().post('/auth/signup').send({ email: email.toUpperCase(), password: DEFAULT_PASSWORD, displayName: 'Bob' }).expect(409);
      expect(res.body).toEqual({ error: 'EMAIL_TAKEN', message: expect.any(String) });
      const count = await t.db.query('SELECT count(*)::int AS n FROM accounts WHERE lower(email) = lower($1)', [email]);
      expect(count.rows[0].n).toBe(1);
    });

    it.each([
      ['a short password', { password: 'short' }, 'password'],
      ['a password over 128 characters', { password: 'x'.repeat(129) }, 'password'],
      ['an empty display name', { displayName: '' }, 'displayName'],
      ['a display name over 32 characters', { displayName: 'x'.repeat(33) }, 'displayName'],
      ['a bad e-mail', { email: 'not-an-email' }, 'email'],
      ['a non-boolean linkPlayer', { linkPlayer: 'yes' }, 'linkPlayer'],
      ['an extra property', { admin: true }, 'admin'],
    ])('answers 400 INVALID_REQUEST for %s', async (_name, change, field) => {
      const body = { email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada', ...change };
      const res = await t.http().post('/auth/signup').send(body).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(setCookies(res)).toEqual([]);
    });

    it('sends a verification mail whose link verifies the e-mail (POST and GET)', async () => {
      const mail = t.app.nest.get(MailService);
      const send = jest.spyOn(mail, 'send');
      try {
        const email = uniqueEmail();
        const res = await t.http().post('/auth/signup').send({ email, password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
        expect(send).toHaveBeenCalledTimes(1);
        const sent = send.mock.calls[0]![0];
        expect(sent.to).toBe(email);
        const link = /http:\/\/localhost:3000\/auth\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(sent.text);
        expect(link).not.toBeNull();
        const token = link![1]!;
        const stored = await t.db.query('SELECT token_hash FROM email_verification_tokens WHERE account_id = $1', [res.body.user.id]);
        expect(stored.rows).toEqual([{ token_hash: createHash('sha256').update(token).digest() }]);

        const verified = await t.http().post('/auth/verify-email').send({ token }).expect(200);
        expect(verified.body.user).toMatchObject({ id: res.body.user.id, emailVerified: true });
        // Single use: the same token again is a bad token.
        const again = await t.http().post('/auth/verify-email').send({ token }).expect(400);
        expect(again.body.error).toBe('INVALID_REQUEST');
      } finally {
        send.mockRestore();
      }
    });

    it('GET /auth/verify-email verifies and redirects to the login page; a bad token redirects with verified=0', async () => {
      const mail = t.app.nest.get(MailService);
      const send = jest.spyOn(mail, 'send');
      try {
        const res = await t.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
        const token = /token=([A-Za-z0-9_-]{43})/.exec(send.mock.calls[0]![0].text)![1]!;
        const ok = await t.http().get(`/auth/verify-email?token=${token}`).expect(303);
        expect(ok.headers.location).toBe('/auth/login?verified=1');
        const me = await t.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
        expect(me.body.emailVerified).toBe(true);
        const bad = await t.http().get(`/auth/verify-email?token=${token}`).expect(303);
        expect(bad.headers.location).toBe('/auth/login?verified=0');
      } finally {
        send.mockRestore();
      }
    });

    it('answers 400 INVALID_REQUEST for an expired token (48 hours)', async () => {
      const send = jest.spyOn(t.app.nest.get(MailService), 'send');
      try {
        const res = await t.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
        const token = /token=([A-Za-z0-9_-]{43})/.exec(send.mock.calls[0]![0].text)![1]!;
        // Time cannot be moved through the API: age the token in the database.
        await t.db.query("UPDATE email_verification_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1", [res.body.user.id]);
        expect((await t.http().post('/auth/verify-email').send({ token }).expect(400)).body.error).toBe('INVALID_REQUEST');
        const me = await t.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
        expect(me.body.emailVerified).toBe(false);
      } finally {
        send.mockRestore();
      }
    });

    it('POST /auth/verify-email answers 400 INVALID_REQUEST for an unknown or malformed token', async () => {
      for (const token of ['x'.repeat(43), 'nope', '']) {
        const res = await t.http().post('/auth/verify-email').send({ token }).expect(400);
        expect(res.body.error).toBe('INVALID_REQUEST');
      }
    });
  });

  describe('races', () => {
    it('creates one account for concurrent sign-ups with one e-mail: one 201, the rest 409 EMAIL_TAKEN', async () => {
      const email = uniqueEmail('race');
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.http().post('/auth/signup').send({ email, password: DEFAULT_PASSWORD, displayName: 'Racer' })));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const rows = await t.db.query('SELECT count(*)::int AS n FROM accounts WHERE email = $1', [email]);
      expect(rows.rows[0].n).toBe(1);
    });

    it('links one player and one wallet for concurrent POST /api/me/player: one 201, the rest 200', async () => {
      const user = await signUpPlayer(t, { linked: false });
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.http().post('/api/me/player').set('Cookie', user.cookie).send({ displayName: 'Racer' })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      const rows = await t.db.query('SELECT count(w.id)::int AS wallets, count(DISTINCT p.id)::int AS players FROM players p JOIN wallets w ON w.player_id = p.id WHERE p.account_id = $1', [user.accountId]);
      expect(rows.rows[0]).toEqual({ wallets: 1, players: 1 });
    });
  });

  describe('POST /auth/login', () => {
    it('answers 200 { user } with a fresh cookie', async () => {
      const player = await signUpPlayer(t);
      const res = await t.http().post('/auth/login').send({ email: player.email, password: player.password }).expect(200);
      expect(res.body).toEqual({ user: { id: player.accountId, email: player.email, emailVerified: false, displayName: 'Player', roles: ['player'], linked: true } });
      const cookie = authCookieOf(res);
      expect(cookie).not.toBe(player.cookie);
      await t.http().get('/api/me').set('Cookie', cookie).expect(200);
    });

    it('accepts the e-mail in any case', async () => {
      const player = await signUpPlayer(t);
      await t.http().post('/auth/login').send({ email: player.email.toUpperCase(), password: player.password }).expect(200);
    });

    it('answers 401 UNAUTHENTICATED with the same message for an unknown e-mail and a wrong password', async () => {
      const player = await signUpPlayer(t);
      const wrong = await t.http().post('/auth/login').send({ email: player.email, password: 'wrong password' }).expect(401);
      const unknown = await t.http().post('/auth/login').send({ email: uniqueEmail(), password: player.password }).expect(401);
      expect(wrong.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
      expect(unknown.body).toEqual(wrong.body);
      expect(setCookies(wrong)).toEqual([]);
    });

    it('answers 400 INVALID_REQUEST for a missing password', async () => {
      const res = await t.http().post('/auth/login').send({ email: uniqueEmail() }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    });
  });

  describe('POST /auth/logout', () => {
    it('answers 204, clears the cookie and revokes the login session: the old cookie answers 401', async () => {
      const player = await signUpPlayer(t);
      await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
      const res = await t.http().post('/auth/logout').set('Cookie', player.cookie).expect(204);
      const cleared = setCookies(res).find((c) => c.startsWith('auth_session='))!;
      expect(cleared).toMatch(/^auth_session=;/);
      expect(cleared).toMatch(/Max-Age=0/);
      const after = await t.http().get('/api/me').set('Cookie', player.cookie).expect(401);
      expect(after.body.error).toBe('UNAUTHENTICATED');
      const rows = await t.db.query('SELECT revoked_at FROM login_sessions WHERE account_id = $1', [player.accountId]);
      expect(rows.rows[0].revoked_at).toBeInstanceOf(Date);
    });

    it('revokes only that login session; another one stays signed in', async () => {
      const player = await signUpPlayer(t);
      const second = await logIn(t, player.email, player.password);
      await t.http().post('/auth/logout').set('Cookie', player.cookie).expect(204);
      await t.http().get('/api/me').set('Cookie', second).expect(200);
    });

    it('answers 204 when already signed out', async () => {
      await t.http().post('/auth/logout').expect(204);
    });
  });

  describe('reading the cookie', () => {
    it('accepts the token split into auth_session.0, auth_session.1, … joined in index order', async () => {
      const player = await signUpPlayer(t);
      const token = tokenOf(player.cookie);
      const chunks = `auth_session.1=${token.slice(20)}; auth_session.0=${token.slice(0, 20)}`;
      const me = await t.http().get('/api/me').set('Cookie', chunks).expect(200);
      expect(me.body.id).toBe(player.accountId);
      const three = `auth_session.0=${token.slice(0, 10)}; auth_session.1=${token.slice(10, 30)}; auth_session.2=${token.slice(30)}`;
      await t.http().get('/api/me').set('Cookie', three).expect(200);
    });

    it('answers 401 for chunks in the wrong order, an unknown token and a malformed one', async () => {
      const player = await signUpPlayer(t);
      const token = tokenOf(player.cookie);
      await t.http().get('/api/me').set('Cookie', `auth_session.0=${token.slice(20)}; auth_session.1=${token.slice(0, 20)}`).expect(401);
      await t.http().get('/api/me').set('Cookie', `auth_session=${'A'.repeat(43)}`).expect(401);
      await t.http().get('/api/me').set('Cookie', 'auth_session=%%%garbage').expect(401);
    });

    it('answers 401 once the login session has expired (30 days)', async () => {
      const player = await signUpPlayer(t);
      await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
      // Time cannot be moved through the API: age the login session in the database.
      await t.db.query("UPDATE login_sessions SET expires_at = now() - interval '1 second' WHERE account_id = $1", [player.accountId]);
      await t.http().get('/api/me').set('Cookie', player.cookie).expect(401);
    });

    it('answers 401 UNAUTHENTICATED without any cookie', async () => {
      const res = await t.http().get('/api/me').expect(401);
      expect(res.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
    });
  });

  describe('GET /api/me and POST /api/me/player', () => {
    it('shows xp, level, balance and initials of a linked account', async () => {
      const player = await signUpPlayer(t);
      const me = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
      expect(me.body).toEqual({
        id: player.accountId,
        email: player.email,
        emailVerified: false,
        displayName: 'Player',
        roles: ['player'],
        linked: true,
        xp: 0,
        level: 1,
        balance: 0,
        initials: null,
      });
    });

    it('links a player profile and a wallet once: 201, then 200 unchanged', async () => {
      const res = await t.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada', linkPlayer: false }).expect(201);
      const cookie = authCookieOf(res);
      const linked = await t.http().post('/api/me/player').set('Cookie', cookie).send({ displayName: 'Ace' }).expect(201);
      expect(linked.body).toMatchObject({ id: res.body.user.id, linked: true, roles: ['player'], balance: 0, xp: 0, level: 1, initials: null });
      const again = await t.http().post('/api/me/player').set('Cookie', cookie).send({ displayName: 'Other' }).expect(200);
      expect(again.body).toEqual(linked.body);
      const rows = await t.db.query(
        'SELECT p.display_name, count(w.id)::int AS wallets FROM players p LEFT JOIN wallets w ON w.player_id = p.id WHERE p.account_id = $1 GROUP BY p.display_name',
        [res.body.user.id],
      );
      expect(rows.rows).toEqual([{ display_name: 'Ace', wallets: 1 }]);
    });

    it('answers 401 signed out and 400 for a bad display name', async () => {
      await t.http().post('/api/me/player').send({ displayName: 'Ace' }).expect(401);
      const player = await signUpPlayer(t, { linked: false });
      const res = await t.http().post('/api/me/player').set('Cookie', player.cookie).send({ displayName: 'x'.repeat(33) }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    });
  });

  describe('check order: 401, same origin, e-mail verified, player linked, role (CONTRACT §2, §16.17)', () => {
    it('refuses a state-changing request from another Origin with 403 FORBIDDEN', async () => {
      const player = await signUpPlayer(t, { verified: true });
      const res = await t.http().post('/__probe/player').set('Cookie', player.cookie).set('Origin', 'https://evil.example').expect(403);
      expect(res.body).toEqual({ error: 'FORBIDDEN', message: expect.any(String) });
      await t.http().post('/api/me/player').set('Cookie', player.cookie).set('Origin', 'https://evil.example').send({ displayName: 'X' }).expect(403);
    });

    it('refuses Sec-Fetch-Site cross-site and same-site; accepts same-origin, none, and this origin', async () => {
      const player = await signUpPlayer(t, { verified: true });
      for (const site of ['cross-site', 'same-site']) {
        const res = await t.http().post('/__probe/player').set('Cookie', player.cookie).set('Sec-Fetch-Site', site).expect(403);
        expect(res.body.error).toBe('FORBIDDEN');
      }
      for (const site of ['same-origin', 'none']) {
        await t.http().post('/__probe/player').set('Cookie', player.cookie).set('Sec-Fetch-Site', site).expect(200);
      }
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
        await t.http().post('/__probe/player').set('Cookie', player.cookie).set('Origin', origin).expect(200);
      }
    });

    it('lets a cross-origin read through (only state changes are refused)', async () => {
      const player = await signUpPlayer(t);
      await t.http().get('/__probe/signed-in').set('Cookie', player.cookie).set('Origin', 'https://evil.example').expect(200);
    });

    it('answers 401 before the origin check', async () => {
      const res = await t.http().post('/__probe/player').set('Origin', 'https://evil.example').expect(401);
      expect(res.body.error).toBe('UNAUTHENTICATED');
    });

    it('answers FORBIDDEN (origin) before EMAIL_NOT_VERIFIED', async () => {
      const player = await signUpPlayer(t, { verified: false });
      const res = await t.http().post('/__probe/player').set('Cookie', player.cookie).set('Origin', 'https://evil.example').expect(403);
      expect(res.body.error).toBe('FORBIDDEN');
    });

    it('answers 403 EMAIL_NOT_VERIFIED before ACCOUNT_NOT_LINKED', async () => {
      const player = await signUpPlayer(t, { verified: false, linked: false });
      const res = await t.http().post('/__probe/player').set('Cookie', player.cookie).expect(403);
      expect(res.body).toEqual({ error: 'EMAIL_NOT_VERIFIED', message: expect.any(String) });
    });

    it('answers 403 ACCOUNT_NOT_LINKED to a verified account without a player', async () => {
      const player = await signUpPlayer(t, { verified: true, linked: false });
      const res = await t.http().post('/__probe/player').set('Cookie', player.cookie).expect(403);
      expect(res.body).toEqual({ error: 'ACCOUNT_NOT_LINKED', message: expect.any(String) });
    });

    it('gives a play-ready player the full auth context', async () => {
      const player = await signUpPlayer(t, { verified: true });
      const res = await t.http().post('/__probe/player').set('Cookie', player.cookie).expect(200);
      expect(res.body).toEqual({
        accountId: player.accountId,
        email: player.email,
        emailVerified: true,
        displayName: 'Player',
        isAdmin: false,
        developerId: null,
        playerId: player.playerId,
        walletId: expect.any(String),
        walletFrozen: false,
        playerInitials: null,
        loginSessionId: expect.any(String),
      });
    });

    it('the real play endpoint answers EMAIL_NOT_VERIFIED and ACCOUNT_NOT_LINKED too', async () => {
      const unverified = await signUpPlayer(t, { verified: false });
      const a = await t.http().post('/api/play/sessions').set('Cookie', unverified.cookie).send({ gameSlug: 'any-game' }).expect(403);
      expect(a.body.error).toBe('EMAIL_NOT_VERIFIED');
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      const b = await t.http().post('/api/play/sessions').set('Cookie', unlinked.cookie).send({ gameSlug: 'any-game' }).expect(403);
      expect(b.body.error).toBe('ACCOUNT_NOT_LINKED');
      await t.http().post('/api/play/sessions').send({ gameSlug: 'any-game' }).expect(401);
    });

    it('refuses a cross-origin login and sign-up with 403 FORBIDDEN', async () => {
      const player = await signUpPlayer(t);
      const login = await t.http().post('/auth/login').set('Origin', 'https://evil.example').send({ email: player.email, password: player.password }).expect(403);
      expect(login.body.error).toBe('FORBIDDEN');
      expect(setCookies(login)).toEqual([]);
      await t.http().post('/auth/signup').set('Sec-Fetch-Site', 'cross-site').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'A' }).expect(403);
      await t.http().post('/auth/logout').set('Cookie', player.cookie).set('Origin', 'https://evil.example').expect(403);
      await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
    });

    it('admin and developer routes answer 403 FORBIDDEN to other accounts', async () => {
      const player = await signUpPlayer(t, { verified: true });
      expect((await t.http().post('/__probe/admin').set('Cookie', player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
      expect((await t.http().post('/__probe/developer').set('Cookie', player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
    });
  });
});

describe('accounts on an https origin', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { PUBLIC_ORIGIN: 'https://arcade.example.test' } });
  });
  afterAll(async () => t.close());

  it('sets Secure on the cookie exactly when PUBLIC_ORIGIN is https', async () => {
    const res = await t.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
    const cookie = setCookies(res).find((c) => c.startsWith('auth_session='))!;
    expect(cookie).toMatch(/; Secure(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
  });

  it('accepts its own origin and refuses the localhost one', async () => {
    const player = await signUpPlayer(t);
    await t.http().post('/api/me/player').set('Cookie', player.cookie).set('Origin', 'https://arcade.example.test').send({ displayName: 'A' }).expect(200);
    const res = await t.http().post('/api/me/player').set('Cookie', player.cookie).set('Origin', 'http://localhost:3000').send({ displayName: 'A' }).expect(403);
    expect(res.body.error).toBe('FORBIDDEN');
  });
});

describe('login rate limits (failed attempts per e-mail and per client address)', () => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_LOGIN_PER_EMAIL: '3/60', RATE_LIMIT_LOGIN_PER_ADDRESS: '6/60' } });
  });
  afterEach(async () => t.close());

  const attempt = (email: string, password: string) => t.http().post('/auth/login').send({ email, password });

  it('answers 429 RATE_LIMITED with Retry-After once an e-mail had its failures, even for the right password', async () => {
    const player = await signUpPlayer(t);
    for (let i = 0; i < 3; i++) expect((await attempt(player.email, 'wrong password')).status).toBe(401);
    const res = await attempt(player.email.toUpperCase(), player.password).expect(429);
    expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(res.body.retryAfterMs).toBeGreaterThan(0);
    expect(res.body.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(setCookies(res)).toEqual([]);
    // Another e-mail from the same address is not limited yet (3 of 6 address failures).
    const other = await signUpPlayer(t);
    await attempt(other.email, other.password).expect(200);
  });

  it('counts unknown e-mails too, and limits one client address across e-mails', async () => {
    for (let i = 0; i < 6; i++) expect((await attempt(uniqueEmail(), 'wrong password')).status).toBe(401);
    const res = await attempt(uniqueEmail(), 'wrong password').expect(429);
    expect(res.body.error).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('never counts successful sign-ins, and a success clears the e-mail\'s failures', async () => {
    const player = await signUpPlayer(t);
    for (let i = 0; i < 10; i++) await attempt(player.email, player.password).expect(200);
    for (let i = 0; i < 2; i++) await attempt(player.email, 'wrong password').expect(401);
    await attempt(player.email, player.password).expect(200);
    for (let i = 0; i < 2; i++) await attempt(player.email, 'wrong password').expect(401);
    await attempt(player.email, player.password).expect(200);
  });
});

describe('GET /auth/login', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
  });
  afterAll(async () => t.close());

  it('serves an HTML page with labelled sign-in and sign-up forms under a strict CSP (our own scripts only)', async () => {
    const res = await t.http().get('/auth/login').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(res.text).toContain('<html lang="en">');
    for (const id of ['signin-email', 'signin-password', 'signup-name', 'signup-email', 'signup-password']) {
      expect(res.text).toContain(`<label for="${id}">`);
      expect(res.text).toContain(`id="${id}"`);
    }
    expect(res.text).toContain('action="/auth/login"');
    expect(res.text).toContain('action="/auth/signup"');
    expect(res.text).toContain('aria-labelledby="signin-heading"');
    expect(res.text).toContain('aria-labelledby="signup-heading"');
    expect(res.text).toContain('role="alert"');
  });

  it('keeps a same-origin next path and replaces any other with /me', async () => {
    const ok = await t.http().get('/auth/login').query({ next: '/play/coin-clicker' }).expect(200);
    expect(ok.text).toContain('data-next="/play/coin-clicker"');
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const res = await t.http().get('/auth/login').query({ next }).expect(200);
      expect(res.text).toContain('data-next="/me"');
      expect(res.text).not.toContain('evil.example');
    }
  });

  it('shows the outcome of a verification link', async () => {
    expect((await t.http().get('/auth/login?verified=1').expect(200)).text).toContain('Your e-mail address is verified');
    expect((await t.http().get('/auth/login?verified=0').expect(200)).text).toContain('invalid or has expired');
  });
});
