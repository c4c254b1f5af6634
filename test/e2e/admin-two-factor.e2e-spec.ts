/**
 * ADMIN_REQUIRE_2FA (CONTRACT §20): with it, an admin whose two-factor authentication is off gets
 * 403 TWO_FACTOR_REQUIRED from every /api/admin/... endpoint and a 403 notice page at /admin
 * linking /me/settings; once two-factor is on, both answer as before.
 */
import { generate } from 'otplib';
import { createTestApp, TestApp } from '../support/app';
import { ADMIN_EMAIL, ADMIN_PASSWORD, authCookieOf, createWorldApp, logIn, signUpPlayer } from '../support/factories';

const totp = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

describe('admins and two-factor (ADMIN_REQUIRE_2FA)', () => {
  let t: TestApp;
  /** The same database without the requirement (ADMIN_REQUIRE_2FA=false, the default outside production). */
  let relaxed: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { ADMIN_REQUIRE_2FA: 'true' } });
    relaxed = await createTestApp({ databaseUrl: t.databaseUrl, clock: t.clock, env: { ADMIN_REQUIRE_2FA: 'false' } });
  });
  afterAll(async () => {
    await relaxed?.close();
    await t?.close();
  });

  it('403 TWO_FACTOR_REQUIRED from the admin API and a 403 notice page until the admin turns two-factor on; then both answer', async () => {
    const admin = await logIn(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const player = await signUpPlayer(t);

    const list = await t.http().get('/api/admin/users').query({ query: player.email }).set('Cookie', admin).expect(403);
    expect(list.body).toEqual({ error: 'TWO_FACTOR_REQUIRED', message: expect.stringContaining('two-factor') });
    // A write is refused before it happens: the e-mail stays unverified.
    expect((await t.http().post(`/api/admin/users/${player.accountId}/verify-email`).set('Cookie', admin).expect(403)).body.error).toBe('TWO_FACTOR_REQUIRED');
    expect((await t.db.query('SELECT email_verified_at FROM accounts WHERE id = $1', [player.accountId])).rows[0]).toEqual({ email_verified_at: null });

    const page = await t.http().get('/admin').set('Cookie', admin).expect(403);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Two-factor authentication required</h1>');
    expect(page.text).toMatch(/<a [^>]*href="\/me\/settings"/);

    // Without the requirement the same admin session works.
    await relaxed.http().get('/api/admin/users').query({ query: player.email }).set('Cookie', admin).expect(200);
    await relaxed.http().get('/admin').set('Cookie', admin).expect(200);

    const { secret } = (await t.http().post('/api/me/2fa/setup').set('Cookie', admin).expect(200)).body;
    await t.http().post('/api/me/2fa/enable').set('Cookie', admin).send({ code: await totp(secret) }).expect(200);

    await t.http().get('/api/admin/users').query({ query: player.email }).set('Cookie', admin).expect(200);
    await t.http().post(`/api/admin/users/${player.accountId}/verify-email`).set('Cookie', admin).expect(200);
    await t.http().get('/admin').set('Cookie', admin).expect(200);

    // Signing in again asks for the code; the new session reaches the console.
    const challenge = (await t.http().post('/auth/login').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(200)).body.challenge;
    const again = authCookieOf(await t.http().post('/auth/login/2fa').send({ challenge, code: await totp(secret, 1) }).expect(200));
    await t.http().get('/admin').set('Cookie', again).expect(200);
  });

  it('a non-admin still gets 403 FORBIDDEN from the API and the 404 page, whatever its two-factor', async () => {
    const player = await signUpPlayer(t);
    expect((await t.http().get('/api/admin/users').set('Cookie', player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
    await t.http().get('/admin').set('Cookie', player.cookie).expect(404);
  });
});
