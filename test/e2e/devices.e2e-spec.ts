import { createTestApp, TestApp } from '../support/app';
import { authCookieOf, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { startSession } from '../support/play';

const ORIGIN = 'http://localhost:3000';

/** CONTRACT §20: signed-in devices (`GET /api/me/sessions`), signing one out, signing out everywhere else. */
describe('signed-in devices', () => {
  let t: TestApp;
  /** A second instance on the same database: a sign-out must hold there at once too. */
  let other: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
    other = await createTestApp({ databaseUrl: t.databaseUrl });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  async function signIn(who: { email: string; password: string }, userAgent?: string): Promise<string> {
    const request = t.http().post('/auth/login');
    if (userAgent !== undefined) request.set('User-Agent', userAgent);
    const res = await request.send({ email: who.email, password: who.password }).expect(200);
    return authCookieOf(res);
  }

  const devices = (cookie: string, app: TestApp = t) => app.http().get('/api/me/sessions').set('Cookie', cookie);
  const idOf = async (cookie: string) => ((await devices(cookie).expect(200)).body.sessions as { id: string; current: boolean }[]).find((s) => s.current)!.id;
  const signOut = (cookie: string, id: string) => t.http().delete(`/api/me/sessions/${id}`).set('Cookie', cookie);

  it('lists the live sessions newest first: this one marked current, the user agent each signed in with (first 200 characters, null when none or empty), when each signed in and was last used', async () => {
    const ada = await signUpVerifiedPlayer(t);
    const firefox = await signIn(ada, 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0');
    const long = await signIn(ada, `Robot/${'x'.repeat(300)}`);
    const none = await signIn(ada, '');
    const ended = await signIn(ada, 'Signed out');
    await t.http().post('/auth/logout').set('Cookie', ended).expect(204);
    // Someone else's sessions are not listed.
    await signUpVerifiedPlayer(t);

    const res = await devices(long).expect(200);
    const sessions = res.body.sessions as { id: string; current: boolean; createdAt: string; lastSeenAt: string; userAgent: string | null }[];
    expect(sessions.map((s) => s.userAgent)).toEqual([null, `Robot/${'x'.repeat(194)}`, 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', null]);
    expect(sessions.map((s) => s.current)).toEqual([false, true, false, false]);
    for (const s of sessions) {
      expect(s).toEqual({ id: expect.any(String), current: expect.any(Boolean), createdAt: expect.any(String), lastSeenAt: expect.any(String), userAgent: s.userAgent });
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    }
    const created = sessions.map((s) => Date.parse(s.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    // The same list from every device of the account, each marking its own.
    expect((await devices(firefox).expect(200)).body.sessions.filter((s: { current: boolean }) => s.current).map((s: { id: string }) => s.id)).toEqual([sessions[2]!.id]);
    expect((await devices(none).expect(200)).body.sessions.map((s: { id: string }) => s.id)).toEqual(sessions.map((s) => s.id));
    await t.http().get('/api/me/sessions').expect(401);
  });

  it('moves "last used" when a session is used more than a minute after its last use, and writes nothing for a use within the minute', async () => {
    const ada = await signUpVerifiedPlayer(t);
    const lastSeen = async () => (await t.db.query<{ last_seen_at: Date }>('SELECT last_seen_at FROM login_sessions WHERE account_id = $1', [ada.accountId])).rows[0]!.last_seen_at;
    await t.db.query("UPDATE login_sessions SET last_seen_at = now() - interval '5 minutes' WHERE account_id = $1", [ada.accountId]);
    const before = await lastSeen();
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
    const moved = await lastSeen();
    expect(moved.getTime()).toBeGreaterThan(before.getTime() + 4 * 60_000);
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
    await other.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
    expect(await lastSeen()).toEqual(moved);
    const listed = (await devices(ada.cookie).expect(200)).body.sessions[0];
    expect(listed.lastSeenAt).toBe(moved.toISOString());
  });

  it('signs one device out: 204, and that cookie answers 401 at once on every instance, a kept play route included; the list no longer shows it and a second sign-out is 404', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const ada = await signUpVerifiedPlayer(t);
    const phone = await signIn(ada, 'Phone');
    const phoneId = await idOf(phone);
    // The second instance keeps the phone's login session for the heartbeat (read less than 30 s ago).
    const { sessionId } = await startSession(other, { cookie: phone }, game.slug);
    for (let i = 0; i < 2; i++) await other.http().post(`/api/play/sessions/${sessionId}/heartbeat`).set('Cookie', phone).expect(200);

    const res = await signOut(ada.cookie, phoneId).expect(204);
    expect(res.headers['set-cookie']).toBeUndefined();

    expect((await t.http().get('/api/me').set('Cookie', phone).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await other.http().get('/api/me').set('Cookie', phone).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await other.http().post(`/api/play/sessions/${sessionId}/heartbeat`).set('Cookie', phone).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await devices(ada.cookie).expect(200)).body.sessions.map((s: { id: string }) => s.id)).not.toContain(phoneId);
    expect((await signOut(ada.cookie, phoneId).expect(404)).body.error).toBe('NOT_FOUND');
    // The caller stays signed in.
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
  });

  it("answers 404 NOT_FOUND for another account's session (which stays signed in), an unknown or malformed id; 400 for an id over 64 characters", async () => {
    const ada = await signUpVerifiedPlayer(t);
    const bob = await signUpVerifiedPlayer(t);
    const bobId = await idOf(bob.cookie);
    expect((await signOut(ada.cookie, bobId).expect(404)).body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
    await t.http().get('/api/me').set('Cookie', bob.cookie).expect(200);
    expect((await signOut(ada.cookie, '00000000-0000-4000-8000-000000000000').expect(404)).body.error).toBe('NOT_FOUND');
    expect((await signOut(ada.cookie, 'nope').expect(404)).body.error).toBe('NOT_FOUND');
    expect((await signOut(ada.cookie, 'a'.repeat(65)).expect(400)).body.error).toBe('INVALID_REQUEST');
    await t.http().delete(`/api/me/sessions/${bobId}`).expect(401);
  });

  it("signing out the caller's own session signs it out: 204, the cookie cleared, the cookie answers 401", async () => {
    const ada = await signUpVerifiedPlayer(t);
    const res = await signOut(ada.cookie, await idOf(ada.cookie)).expect(204);
    const cleared = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cleared.some((c) => /^auth_session=;/.test(c) && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(401);
  });

  it('signs out everywhere else: 204, every other session of the account answers 401 on every instance, this one and other accounts stay', async () => {
    const ada: SignedUpUser = await signUpVerifiedPlayer(t);
    const laptop = await signIn(ada, 'Laptop');
    const phone = await signIn(ada, 'Phone');
    const bob = await signUpVerifiedPlayer(t);
    await t.http().post('/api/me/sessions/revoke-others').set('Cookie', laptop).expect(204);
    for (const cookie of [ada.cookie, phone]) {
      await t.http().get('/api/me').set('Cookie', cookie).expect(401);
      await other.http().get('/api/me').set('Cookie', cookie).expect(401);
    }
    await other.http().get('/api/me').set('Cookie', laptop).expect(200);
    await t.http().get('/api/me').set('Cookie', bob.cookie).expect(200);
    const sessions = (await devices(laptop).expect(200)).body.sessions;
    expect(sessions).toEqual([expect.objectContaining({ current: true, userAgent: 'Laptop' })]);
    // Nothing else to sign out: still 204.
    await t.http().post('/api/me/sessions/revoke-others').set('Cookie', laptop).expect(204);
  });

  it('refuses cross-site sign-outs like every cookie write (403 FORBIDDEN), and takes same-origin ones', async () => {
    const ada = await signUpVerifiedPlayer(t);
    const phone = await signIn(ada, 'Phone');
    const phoneId = await idOf(phone);
    const evil = 'https://evil.example';
    expect((await signOut(ada.cookie, phoneId).set('Origin', evil).expect(403)).body.error).toBe('FORBIDDEN');
    expect((await t.http().post('/api/me/sessions/revoke-others').set('Cookie', ada.cookie).set('Sec-Fetch-Site', 'cross-site').expect(403)).body.error).toBe('FORBIDDEN');
    await t.http().get('/api/me').set('Cookie', phone).expect(200);
    await signOut(ada.cookie, phoneId).set('Origin', ORIGIN).set('Sec-Fetch-Site', 'same-origin').expect(204);
    await t.http().get('/api/me').set('Cookie', phone).expect(401);
  });

  it('the database itself refuses a user agent over 200 characters', async () => {
    const ada = await signUpVerifiedPlayer(t);
    await expect(t.db.query('UPDATE login_sessions SET user_agent = $2 WHERE account_id = $1', [ada.accountId, 'x'.repeat(201)])).rejects.toThrow(/login_sessions_user_agent_length/);
  });
});
