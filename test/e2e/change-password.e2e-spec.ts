import { createTestApp, TestApp } from '../support/app';
import { createWorldApp, logIn, signUpVerifiedPlayer } from '../support/factories';

const NEW_PASSWORD = 'a brand new passphrase';

/** CONTRACT §20 `POST /api/me/password`; §12 per-e-mail login limit (3 failures per 15 minutes here). */
describe('changing the password', () => {
  let t: TestApp;
  /** A second instance on the same database: the other sessions end there at once too. */
  let other: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_LOGIN_PER_EMAIL: '3/900' } });
    other = await createTestApp({ databaseUrl: t.databaseUrl, clock: t.clock, env: { RATE_LIMIT_LOGIN_PER_EMAIL: '3/900' } });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const change = (cookie: string, body: object) => t.http().post('/api/me/password').set('Cookie', cookie).send(body);
  const passwordHash = async (accountId: string) => (await t.db.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE id = $1', [accountId])).rows[0]!.password_hash;

  it('204: the new password signs in and the old one no longer does; every other session answers 401 on every instance, this one stays', async () => {
    const ada = await signUpVerifiedPlayer(t);
    const phone = await logIn(t, ada.email, ada.password);
    const before = await passwordHash(ada.accountId);

    await change(ada.cookie, { currentPassword: ada.password, newPassword: NEW_PASSWORD }).expect(204);

    expect(await passwordHash(ada.accountId)).not.toBe(before);
    expect(await passwordHash(ada.accountId)).toMatch(/^\$argon2id\$/);
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
    await other.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
    await t.http().get('/api/me').set('Cookie', phone).expect(401);
    await other.http().get('/api/me').set('Cookie', phone).expect(401);
    expect((await t.http().post('/auth/login').send({ email: ada.email, password: ada.password }).expect(401)).body.error).toBe('UNAUTHENTICATED');
    await logIn(t, ada.email, NEW_PASSWORD);
    const sessions = (await t.http().get('/api/me/sessions').set('Cookie', ada.cookie).expect(200)).body.sessions;
    expect(sessions.map((s: { current: boolean }) => s.current)).toEqual([false, true]);
  });

  it('a wrong current password: 403 WRONG_PASSWORD, nothing changes, and it counts as a failed login for the e-mail (a right one does not)', async () => {
    const ada = await signUpVerifiedPlayer(t);
    const phone = await logIn(t, ada.email, ada.password);
    const before = await passwordHash(ada.accountId);

    for (let i = 0; i < 2; i++) {
      const res = await change(ada.cookie, { currentPassword: 'not the password', newPassword: NEW_PASSWORD }).expect(403);
      expect(res.body).toEqual({ error: 'WRONG_PASSWORD', message: 'The current password is wrong.' });
    }
    expect(await passwordHash(ada.accountId)).toBe(before);
    await t.http().get('/api/me').set('Cookie', phone).expect(200);

    // Two failures of three: a right change is not counted...
    await change(ada.cookie, { currentPassword: ada.password, newPassword: NEW_PASSWORD }).expect(204);
    // ...a third failure reaches the limit: sign-in with the right password and the change both answer 429.
    await change(ada.cookie, { currentPassword: 'still not it', newPassword: 'another passphrase' }).expect(403);
    const login = await t.http().post('/auth/login').send({ email: ada.email, password: NEW_PASSWORD }).expect(429);
    expect(login.body.error).toBe('RATE_LIMITED');
    expect((await change(ada.cookie, { currentPassword: NEW_PASSWORD, newPassword: 'another passphrase' }).expect(429)).body.error).toBe('RATE_LIMITED');
    // Once the window has passed, the new password signs in.
    t.clock.advance(15 * 60_000 + 1000);
    await logIn(t, ada.email, NEW_PASSWORD);
  });

  it('400 INVALID_REQUEST for a new password outside 8 to 128 characters or a missing field, before the password is checked (not counted)', async () => {
    const ada = await signUpVerifiedPlayer(t);
    for (const body of [
      { currentPassword: ada.password, newPassword: 'short12' },
      { currentPassword: ada.password, newPassword: 'x'.repeat(129) },
      { newPassword: NEW_PASSWORD },
      { currentPassword: 'wrong', newPassword: 'short12' },
      { currentPassword: 'wrong', newPassword: 'short12' },
      { currentPassword: 'wrong', newPassword: 'short12' },
    ]) {
      expect((await change(ada.cookie, body).expect(400)).body.error).toBe('INVALID_REQUEST');
    }
    await change(ada.cookie, { currentPassword: ada.password, newPassword: 'x'.repeat(128) }).expect(204);
    await logIn(t, ada.email, 'x'.repeat(128));
  });

  it('401 signed out; 403 FORBIDDEN from another origin, the password unchanged', async () => {
    const ada = await signUpVerifiedPlayer(t);
    await t.http().post('/api/me/password').send({ currentPassword: ada.password, newPassword: NEW_PASSWORD }).expect(401);
    const res = await change(ada.cookie, { currentPassword: ada.password, newPassword: NEW_PASSWORD }).set('Origin', 'https://evil.example').expect(403);
    expect(res.body.error).toBe('FORBIDDEN');
    await logIn(t, ada.email, ada.password);
  });
});
