/**
 * Two-factor authentication (CONTRACT §20): setup, enable, disable, the code step of signing in
 * and of a password reset. TOTP codes are computed with otplib from the secret setup answers, at
 * the current step or the next one (both inside the ±1 step the service accepts).
 */
import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { RetentionService } from '../../src/modules/retention/retention.service';
import { TestApp } from '../support/app';
import { authCookieOf, createWorldApp, signUpPlayer, SignedUpUser } from '../support/factories';
import { smtpServer, SmtpSink } from '../support/smtp';

const ON_SUBJECT = 'Two-factor authentication is on';
const OFF_SUBJECT = 'Two-factor authentication is off';
const RESET_LINK = /\/auth\/reset-password\?token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;

/** The TOTP of `secret` `offsetSteps` steps from now. */
function totp(secret: string, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

describe('two-factor authentication (CONTRACT §20)', () => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await smtpServer();
    t = await createWorldApp({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}` } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => smtp.server.close(r));
  });

  const post = (path: string, cookie: string, body?: object) => t.http().post(path).set('Cookie', cookie).send(body);
  const setUp = (user: SignedUpUser) => post('/api/me/2fa/setup', user.cookie);
  const enable = (user: SignedUpUser, code: unknown) => post('/api/me/2fa/enable', user.cookie, { code });
  const disable = (user: SignedUpUser, body: object) => post('/api/me/2fa/disable', user.cookie, body);
  const login = (user: SignedUpUser, userAgent = 'jest') => t.http().post('/auth/login').set('User-Agent', userAgent).send({ email: user.email, password: user.password });
  const codeStep = (challenge: unknown, code: unknown, userAgent = 'jest') => t.http().post('/auth/login/2fa').set('User-Agent', userAgent).send({ challenge, code });

  /** A player with two-factor on: its secret, the recovery codes and the code that turned it on. */
  async function withTwoFactor(): Promise<SignedUpUser & { secret: string; recoveryCodes: string[]; enabledWith: string }> {
    const user = await signUpPlayer(t);
    const { secret } = (await setUp(user).expect(200)).body;
    const enabledWith = await totp(secret);
    const { recoveryCodes } = (await enable(user, enabledWith).expect(200)).body;
    return { ...user, secret, recoveryCodes, enabledWith };
  }

  async function challengeOf(user: SignedUpUser): Promise<string> {
    const res = await login(user).expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toEqual({ twoFactorRequired: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    return res.body.challenge;
  }

  const settingsRow = async (accountId: string) =>
    (await t.db.query('SELECT secret, pending_secret, enabled_at, last_used_step::text AS last_used_step FROM two_factor_settings WHERE account_id = $1', [accountId])).rows[0];

  it('setup answers a new base32 secret and its otpauth URL; it is not in force until enabled, and a new setup replaces an unconfirmed one', async () => {
    const ada = await signUpPlayer(t);
    const first = (await setUp(ada).expect(200)).body;
    expect(Object.keys(first).sort()).toEqual(['otpauthUrl', 'secret']);
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(first.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Arcade Coin Service:${ada.email}`);
    expect(url.searchParams.get('secret')).toBe(first.secret);
    expect(url.searchParams.get('issuer')).toBe('Arcade Coin Service');

    // Not in force: signing in still answers { user } and the cookie.
    authCookieOf(await login(ada).expect(200));
    expect(await settingsRow(ada.accountId)).toMatchObject({ secret: null, pending_secret: first.secret, enabled_at: null });

    const second = (await setUp(ada).expect(200)).body;
    expect(second.secret).not.toBe(first.secret);
    expect((await enable(ada, await totp(first.secret)).expect(400)).body.error).toBe('INVALID_CODE');
    expect((await enable(ada, await totp(second.secret)).expect(200)).body.recoveryCodes).toHaveLength(10);
  });

  it('enable: 400 INVALID_REQUEST for a code that is not 6 digits, 409 CONFLICT with no pending setup, 400 INVALID_CODE for a wrong code; nothing changes', async () => {
    const ada = await signUpPlayer(t);
    expect((await enable(ada, '123456').expect(409)).body.error).toBe('CONFLICT');
    const { secret } = (await setUp(ada).expect(200)).body;
    for (const code of ['12345', '1234567', 'abcdef', 123456, '', null, 'abcde-fghij']) {
      expect({ code, error: (await enable(ada, code).expect(400)).body.error }).toEqual({ code, error: 'INVALID_REQUEST' });
    }
    expect((await post('/api/me/2fa/enable', ada.cookie, {}).expect(400)).body.error).toBe('INVALID_REQUEST');
    const right = await totp(secret);
    const wrong = right === '000000' ? '000001' : '000000';
    expect((await enable(ada, wrong).expect(400)).body).toEqual({ error: 'INVALID_CODE', message: expect.any(String) });
    expect(await settingsRow(ada.accountId)).toMatchObject({ secret: null, pending_secret: secret, enabled_at: null });
    authCookieOf(await login(ada).expect(200));
  });

  it('enable: 10 distinct recovery codes shown once and stored only hashed, the notice mail (text and HTML), then setup and enable answer 409', async () => {
    const ada = await withTwoFactor();
    expect(new Set(ada.recoveryCodes).size).toBe(10);
    for (const code of ada.recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const stored = (await t.db.query<{ code_hash: Buffer; used_at: Date | null }>('SELECT code_hash, used_at FROM two_factor_recovery_codes WHERE account_id = $1', [ada.accountId])).rows;
    expect(stored).toHaveLength(10);
    const hashes = ada.recoveryCodes.map((code) => createHash('sha256').update(code.replace('-', '')).digest('hex')).sort();
    expect(stored.map((row) => row.code_hash.toString('hex')).sort()).toEqual(hashes);
    expect(await settingsRow(ada.accountId)).toMatchObject({ secret: ada.secret, pending_secret: null, enabled_at: expect.any(Date) });

    const [mail] = await smtp.waitFor(ada.email, 1, ON_SUBJECT);
    expect(mail!.text).toContain('Two-factor authentication was turned on');
    expect(mail!.html).toContain('Two-factor authentication was turned on');
    expect(mail!.text).not.toContain(ada.secret);

    expect((await setUp(ada).expect(409)).body.error).toBe('CONFLICT');
    expect((await enable(ada, await totp(ada.secret, 1)).expect(409)).body.error).toBe('CONFLICT');
    // The secret is in no other answer: /api/me, the settings page.
    expect(JSON.stringify((await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200)).body)).not.toContain(ada.secret);
    expect((await t.http().get('/me/settings').set('Cookie', ada.cookie).expect(200)).text).not.toContain(ada.secret);
  });

  it('sign-in with two-factor on: the right password answers a challenge and no cookie; the code step signs in (user agent kept); the code that enabled it is refused', async () => {
    const ada = await withTwoFactor();
    expect((await t.http().post('/auth/login').send({ email: ada.email, password: 'wrong password' }).expect(401)).body.error).toBe('UNAUTHENTICATED');

    const challenge = await challengeOf(ada);
    // TOTP replay: the step that enabled two-factor counts as used.
    expect((await codeStep(challenge, ada.enabledWith).expect(401)).body.error).toBe('UNAUTHENTICATED');
    const code = await totp(ada.secret, 1);
    const res = await codeStep(challenge, code, 'Phone browser 1.0').expect(200);
    expect(res.body.user).toMatchObject({ id: ada.accountId, email: ada.email });
    const cookie = authCookieOf(res);
    await t.http().get('/api/me').set('Cookie', cookie).expect(200);
    const sessions = (await t.http().get('/api/me/sessions').set('Cookie', cookie).expect(200)).body.sessions;
    expect(sessions.find((s: { current: boolean }) => s.current).userAgent).toBe('Phone browser 1.0');

    // The same code again, on a new challenge, and the used challenge: 401.
    expect((await codeStep(await challengeOf(ada), code).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await codeStep(challenge, await totp(ada.secret, 1)).expect(401)).body.error).toBe('UNAUTHENTICATED');
  });

  it('eight concurrent sign-ins with the same code: exactly one wins', async () => {
    const ada = await withTwoFactor();
    const challenges = await Promise.all(Array.from({ length: 8 }, () => challengeOf(ada)));
    const code = await totp(ada.secret, 1);
    const answers = await Promise.all(challenges.map((challenge) => codeStep(challenge, code)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('a recovery code signs in once (any case, with or without the dash); used again it is refused', async () => {
    const ada = await withTwoFactor();
    const [first, second] = ada.recoveryCodes as [string, string];
    authCookieOf(await codeStep(await challengeOf(ada), first).expect(200));
    expect((await codeStep(await challengeOf(ada), first).expect(401)).body.error).toBe('UNAUTHENTICATED');
    authCookieOf(await codeStep(await challengeOf(ada), ` ${second.replace('-', '').toUpperCase()} `).expect(200));
    const used = (await t.db.query('SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE account_id = $1 AND used_at IS NOT NULL', [ada.accountId])).rows[0];
    expect(used).toEqual({ n: 2 });
  });

  it('five wrong codes end the challenge; an unknown or expired challenge answers 401; a malformed code 400', async () => {
    const ada = await withTwoFactor();
    const challenge = await challengeOf(ada);
    const right = await totp(ada.secret, 1);
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await codeStep(challenge, i === 4 ? 'aaaaa-aaaaa' : wrong).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await codeStep(challenge, right).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await codeStep('A'.repeat(43), right).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await codeStep('not a challenge', right).expect(401)).body.error).toBe('UNAUTHENTICATED');

    const expiring = await challengeOf(ada);
    // Five minutes pass (the database's clock decides expiry).
    await t.db.query("UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE challenge_hash = $1", [createHash('sha256').update(expiring).digest()]);
    expect((await codeStep(expiring, right).expect(401)).body.error).toBe('UNAUTHENTICATED');

    const live = await challengeOf(ada);
    for (const code of ['12345', '1234567', 'abc', 123456]) expect((await codeStep(live, code).expect(400)).body.error).toBe('INVALID_REQUEST');
    expect((await t.http().post('/auth/login/2fa').send({ challenge: live }).expect(400)).body.error).toBe('INVALID_REQUEST');
    // Nothing counted against the live challenge: the right code still signs in.
    authCookieOf(await codeStep(live, right).expect(200));
    const row = (await t.db.query('SELECT expires_at - created_at AS ttl FROM login_challenges WHERE challenge_hash = $1', [createHash('sha256').update(live).digest()])).rows[0];
    expect(row.ttl).toMatchObject({ minutes: 5 });
  });

  it('wrong codes count as failed logins for the e-mail (§12): past the limit even the right password answers 429', async () => {
    const ada = await withTwoFactor();
    const right = await totp(ada.secret, 1);
    const wrong = right === '000000' ? '000001' : '000000';
    // RATE_LIMIT_LOGIN_PER_EMAIL is 10 per 15 minutes; a right password on the way is not counted and clears nothing.
    for (let round = 0; round < 2; round++) {
      const challenge = await challengeOf(ada);
      for (let i = 0; i < 5; i++) await codeStep(challenge, wrong).expect(401);
    }
    expect((await login(ada).expect(429)).body.error).toBe('RATE_LIMITED');
    t.clock.advance(15 * 60_000 + 1000);
    authCookieOf(await codeStep(await challengeOf(ada), right).expect(200));
  });

  it('disable: wrong password 403 (checked first, counted), then 409 when off, then a wrong code 400 INVALID_CODE; right: 204, the notice mail, codes gone, sign-in by password alone', async () => {
    const ada = await withTwoFactor();
    const right = await totp(ada.secret, 1);
    const wrong = right === '000000' ? '000001' : '000000';
    expect((await disable(ada, { currentPassword: ada.password, code: '12345' }).expect(400)).body.error).toBe('INVALID_REQUEST');
    expect((await disable(ada, { code: right }).expect(400)).body.error).toBe('INVALID_REQUEST');
    expect((await disable(ada, { currentPassword: 'wrong password', code: wrong }).expect(403)).body.error).toBe('WRONG_PASSWORD');
    expect((await disable(ada, { currentPassword: 'wrong password', code: right }).expect(403)).body.error).toBe('WRONG_PASSWORD');
    expect((await disable(ada, { currentPassword: ada.password, code: wrong }).expect(400)).body.error).toBe('INVALID_CODE');
    expect((await disable(ada, { currentPassword: ada.password, code: ada.enabledWith }).expect(400)).body.error).toBe('INVALID_CODE');
    expect(await settingsRow(ada.accountId)).toMatchObject({ secret: ada.secret });

    await disable(ada, { currentPassword: ada.password, code: right }).expect(204);
    expect(await settingsRow(ada.accountId)).toMatchObject({ secret: null, pending_secret: null, enabled_at: null });
    expect((await t.db.query('SELECT 1 FROM two_factor_recovery_codes WHERE account_id = $1', [ada.accountId])).rows).toEqual([]);
    const [mail] = await smtp.waitFor(ada.email, 1, OFF_SUBJECT);
    expect(mail!.text).toContain('turned off');
    expect(mail!.html).toContain('turned off');
    authCookieOf(await login(ada).expect(200));

    expect((await disable(ada, { currentPassword: ada.password, code: right }).expect(409)).body.error).toBe('CONFLICT');
    expect((await disable(ada, { currentPassword: 'wrong password', code: right }).expect(403)).body.error).toBe('WRONG_PASSWORD');
    // Two wrong passwords and the rest of the failures above count: the per-e-mail limit (10) is not reached yet.
    authCookieOf(await login(ada).expect(200));
  });

  it('disable with a recovery code; it can be set up again afterwards', async () => {
    const ada = await withTwoFactor();
    await disable(ada, { currentPassword: ada.password, code: ada.recoveryCodes[3]! }).expect(204);
    const { secret } = (await setUp(ada).expect(200)).body;
    expect(secret).not.toBe(ada.secret);
    // Steps the account used stay used, whatever the secret: the next step turns it on again.
    expect((await enable(ada, await totp(secret, 1)).expect(200)).body.recoveryCodes).toHaveLength(10);
    // The old recovery codes are gone.
    expect((await codeStep(await challengeOf(ada), ada.recoveryCodes[4]!).expect(401)).body.error).toBe('UNAUTHENTICATED');
  });

  it('a password reset with two-factor on sets the password and revokes the other sessions, then answers a challenge without a cookie; the code signs in', async () => {
    const ada = await withTwoFactor();
    await t.http().post('/auth/password-reset').send({ email: ada.email }).expect(202);
    const [mail] = await smtp.waitFor(ada.email, 1, 'Reset your password');
    const token = RESET_LINK.exec(mail!.text)![1]!;
    const res = await t.http().post('/auth/reset-password').send({ token, password: 'a new long password' }).expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toEqual({ twoFactorRequired: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(401);
    expect((await t.http().post('/auth/login').send({ email: ada.email, password: ada.password }).expect(401)).body.error).toBe('UNAUTHENTICATED');
    const signedIn = await codeStep(res.body.challenge, await totp(ada.secret, 1)).expect(200);
    await t.http().get('/api/me').set('Cookie', authCookieOf(signedIn)).expect(200);
  });

  it('the code step follows the same-origin rule of /auth/login', async () => {
    const ada = await withTwoFactor();
    const challenge = await challengeOf(ada);
    const code = await totp(ada.secret, 1);
    expect((await t.http().post('/auth/login/2fa').set('Origin', 'https://evil.example').send({ challenge, code }).expect(403)).body.error).toBe('FORBIDDEN');
    expect((await t.http().post('/auth/login/2fa').set('Sec-Fetch-Site', 'cross-site').send({ challenge, code }).expect(403)).body.error).toBe('FORBIDDEN');
    authCookieOf(await codeStep(challenge, code).expect(200));
  });

  it('signed out: setup, enable and disable answer 401', async () => {
    expect((await t.http().post('/api/me/2fa/setup').expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await t.http().post('/api/me/2fa/enable').send({ code: '123456' }).expect(401)).body.error).toBe('UNAUTHENTICATED');
    expect((await t.http().post('/api/me/2fa/disable').send({ currentPassword: 'x', code: '123456' }).expect(401)).body.error).toBe('UNAUTHENTICATED');
  });

  it('the retention purge deletes challenges used, ended or expired, and keeps a live one working', async () => {
    const ada = await withTwoFactor();
    const used = await challengeOf(ada);
    authCookieOf(await codeStep(used, ada.recoveryCodes[0]!).expect(200));
    const live = await challengeOf(ada);
    const report = await t.app.nest.get(RetentionService).purge(new Date());
    expect(report.loginChallenges).toBeGreaterThanOrEqual(1);
    const hash = (c: string) => createHash('sha256').update(c).digest();
    expect((await t.db.query('SELECT 1 FROM login_challenges WHERE challenge_hash = $1', [hash(used)])).rows).toEqual([]);
    authCookieOf(await codeStep(live, ada.recoveryCodes[1]!).expect(200));
    // Six minutes on, a waiting challenge has expired and goes too.
    const waiting = await challengeOf(ada);
    await t.app.nest.get(RetentionService).purge(new Date(Date.now() + 6 * 60_000));
    expect((await t.db.query('SELECT 1 FROM login_challenges WHERE challenge_hash = $1', [hash(waiting)])).rows).toEqual([]);
  });
});
