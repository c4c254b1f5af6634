/**
 * Password reset by mailed link (CONTRACT §20): the same answer for a known and an unknown
 * e-mail, the link read from a real SMTP sink, single-use tokens valid 60 minutes and stored as
 * their SHA-256, a newer link voiding older ones, the silent per-e-mail limit and the per-address
 * 429; resetting signs in, revokes every other session, clears the login failures and verifies
 * the e-mail; a banned account stays out and keeps its token.
 */
import { createHash } from 'node:crypto';
import { RetentionService } from '../../src/modules/retention/retention.service';
import { createTestApp, TestApp } from '../support/app';
import { signedInAdmin } from '../support/admin';
import { authCookieOf, createDeveloper, createWorldApp, logIn, publishGame, signUpPlayer, uniqueEmail } from '../support/factories';
import { startSession } from '../support/play';
import { smtpServer, SmtpSink } from '../support/smtp';
import { recordStatements } from '../support/statements';

const NEW_PASSWORD = 'a-brand-new-password';
const SUBJECT = 'Reset your password';
const LINK = /http:\/\/localhost:3000\/auth\/reset-password\?token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;

describe('password reset (CONTRACT §20)', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let addresses = 0;
  /** A client address of its own for each test: the per-address limit is 3 in this app. */
  const freshAddress = () => `203.0.113.${++addresses}`;

  beforeAll(async () => {
    smtp = await smtpServer();
    t = await createWorldApp({
      env: {
        MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}`,
        RATE_LIMIT_RESET_PER_EMAIL: '2/3600',
        RATE_LIMIT_RESET_PER_ADDRESS: '3/3600',
        RATE_LIMIT_LOGIN_PER_EMAIL: '3/900',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => smtp.server.close(r));
  });

  const requestReset = (email: string, from: string) => t.http().post('/auth/password-reset').set('X-Forwarded-For', from).send({ email });
  const resetPassword = (token: string, password = NEW_PASSWORD) => t.http().post('/auth/reset-password').send({ token, password });
  /** The token of the `n`th reset mail to the address (1-based), once it has arrived. */
  async function resetToken(email: string, n = 1): Promise<string> {
    const mails = await smtp.waitFor(email, n, SUBJECT);
    expect(mails.length).toBeGreaterThanOrEqual(n);
    const token = LINK.exec(mails[n - 1]!.text)?.[1];
    expect(token).toBeDefined();
    return token!;
  }
  const resetMails = (email: string) => smtp.mailsTo(email, SUBJECT);
  const tokenRow = async (token: string) =>
    (await t.db.query<{ used_at: Date | null }>('SELECT used_at FROM password_reset_tokens WHERE token_hash = $1', [createHash('sha256').update(token).digest()])).rows[0];

  it('answers a known and an unknown e-mail alike: 202 { sent: true }, the same headers; only the known one gets a mail', async () => {
    const player = await signUpPlayer(t);
    const unknown = uniqueEmail('nobody');
    const from = freshAddress();
    const known = await requestReset(player.email, from).expect(202);
    const stranger = await requestReset(unknown, from).expect(202);
    expect(known.body).toEqual({ sent: true });
    expect(stranger.body).toEqual(known.body);
    expect(known.text).toBe(stranger.text);
    // Every header but the ones that differ per answer anyway (the time, the request's id).
    const varying = new Set(['date', 'x-request-id']);
    const headers = (res: typeof known) => Object.fromEntries(Object.entries(res.headers).filter(([name]) => !varying.has(name)));
    expect(headers(stranger)).toEqual(headers(known));
    expect(Object.keys(known.headers).filter((name) => name.startsWith('set-cookie'))).toEqual([]);

    await resetToken(player.email);
    expect(smtp.mailsTo(unknown)).toEqual([]);
    // The same writes either way: the unknown e-mail's token is stored too, tied to no account.
    const count = async (where: string, values: unknown[] = []) => Number((await t.db.query(`SELECT count(*) AS n FROM password_reset_tokens WHERE ${where}`, values)).rows[0].n);
    expect(await count('account_id = $1', [player.accountId])).toBe(1);
    expect(await count('account_id IS NULL')).toBe(1);
  });

  it('mails a link (text and HTML) whose token is random and stored only as its SHA-256; it sets the password and signs in, once', async () => {
    const player = await signUpPlayer(t);
    await requestReset(player.email, freshAddress()).expect(202);
    const token = await resetToken(player.email);
    const [mail] = resetMails(player.email);
    expect(mail!.html).toContain(`href="http://localhost:3000/auth/reset-password?token=${token}"`);
    const stored = await t.db.query('SELECT token_hash, expires_at - created_at AS valid FROM password_reset_tokens WHERE account_id = $1', [player.accountId]);
    expect(stored.rows).toEqual([{ token_hash: createHash('sha256').update(token).digest(), valid: { hours: 1 } }]);

    const res = await resetPassword(token).expect(200);
    expect(res.body.user).toMatchObject({ id: player.accountId, email: player.email });
    const me = await t.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
    expect(me.body.id).toBe(player.accountId);
    await logIn(t, player.email, NEW_PASSWORD);
    await t.http().post('/auth/login').send({ email: player.email, password: player.password }).expect(401);
    expect((await tokenRow(token))!.used_at).not.toBeNull();

    // Single use.
    const again = await resetPassword(token, 'yet-another-password').expect(400);
    expect(again.body.error).toBe('INVALID_TOKEN');
    await logIn(t, player.email, NEW_PASSWORD);
  });

  it('marks the e-mail verified: the link proved the mailbox', async () => {
    const player = await signUpPlayer(t);
    expect((await t.http().get('/api/me').set('Cookie', player.cookie).expect(200)).body.emailVerified).toBe(false);
    await requestReset(player.email, freshAddress()).expect(202);
    const res = await resetPassword(await resetToken(player.email)).expect(200);
    expect(res.body.user.emailVerified).toBe(true);
  });

  it('revokes every other login session of the account: their cookies answer 401 at once on every instance, a kept play route included', async () => {
    const other = await createTestApp({ databaseUrl: t.databaseUrl });
    try {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev);
      const player = await signUpPlayer(t, { verified: true });
      const laptop = await logIn(t, player.email, player.password);
      // The second instance keeps the laptop's login session for the heartbeat (read less than 30 s ago).
      const { sessionId } = await startSession(other, { cookie: laptop }, game.slug);
      const heartbeat = () => other.http().post(`/api/play/sessions/${sessionId}/heartbeat`).set('Cookie', laptop);
      await heartbeat().expect(200);
      await requestReset(player.email, freshAddress()).expect(202);
      const res = await resetPassword(await resetToken(player.email)).expect(200);
      for (const app of [t, other]) {
        await app.http().get('/api/me').set('Cookie', player.cookie).expect(401);
        await app.http().get('/api/me').set('Cookie', laptop).expect(401);
        await app.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
      }
      expect((await heartbeat().expect(401)).body.error).toBe('UNAUTHENTICATED');
    } finally {
      await other.close();
    }
  });

  it("clears the e-mail's failed logins: the new password signs in at once", async () => {
    const player = await signUpPlayer(t);
    for (let i = 0; i < 3; i++) await t.http().post('/auth/login').send({ email: player.email, password: 'wrong-password' }).expect(401);
    expect((await t.http().post('/auth/login').send({ email: player.email, password: player.password }).expect(429)).body.error).toBe('RATE_LIMITED');
    await requestReset(player.email, freshAddress()).expect(202);
    await resetPassword(await resetToken(player.email)).expect(200);
    await logIn(t, player.email, NEW_PASSWORD);
  });

  it('refuses an expired token (60 minutes) and an unknown one with 400 INVALID_TOKEN', async () => {
    const player = await signUpPlayer(t);
    await requestReset(player.email, freshAddress()).expect(202);
    const token = await resetToken(player.email);
    // Time cannot be moved through the API: age the token in the database.
    await t.db.query("UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1", [player.accountId]);
    expect((await resetPassword(token).expect(400)).body.error).toBe('INVALID_TOKEN');
    expect((await resetPassword('A'.repeat(43)).expect(400)).body.error).toBe('INVALID_TOKEN');
    expect((await resetPassword('not a token').expect(400)).body.error).toBe('INVALID_TOKEN');
    await logIn(t, player.email, player.password);
  });

  it('refuses a new password shorter than 8 or longer than 128 characters with 400 INVALID_REQUEST, the token left unused', async () => {
    const player = await signUpPlayer(t);
    await requestReset(player.email, freshAddress()).expect(202);
    const token = await resetToken(player.email);
    for (const password of ['short77', 'x'.repeat(129)]) expect((await resetPassword(token, password).expect(400)).body.error).toBe('INVALID_REQUEST');
    expect((await tokenRow(token))!.used_at).toBeNull();
  });

  it('makes older unused links invalid when a newer one is asked for', async () => {
    const player = await signUpPlayer(t);
    const from = freshAddress();
    await requestReset(player.email, from).expect(202);
    const older = await resetToken(player.email, 1);
    await requestReset(player.email, from).expect(202);
    const newer = await resetToken(player.email, 2);
    expect(newer).not.toBe(older);
    expect((await resetPassword(older).expect(400)).body.error).toBe('INVALID_TOKEN');
    await resetPassword(newer).expect(200);
  });

  it('beyond the per-e-mail limit answers the same 202 and sends nothing; the earlier link stays valid', async () => {
    const player = await signUpPlayer(t);
    // One at a time: mails sent in the background may arrive out of order.
    await requestReset(player.email, freshAddress()).expect(202);
    await resetToken(player.email, 1);
    await requestReset(player.email, freshAddress()).expect(202);
    const latest = await resetToken(player.email, 2);
    const over = await requestReset(player.email, freshAddress()).expect(202);
    expect(over.body).toEqual({ sent: true });
    // An unknown e-mail counts the same way: its third request is answered alike.
    const unknown = uniqueEmail('nobody');
    for (let i = 0; i < 3; i++) expect((await requestReset(unknown, freshAddress()).expect(202)).body).toEqual({ sent: true });
    // Give a mail that should not come the time to arrive: a known one to another account after it.
    const other = await signUpPlayer(t);
    await requestReset(other.email, freshAddress()).expect(202);
    await resetToken(other.email);
    expect(resetMails(player.email)).toHaveLength(2);
    await resetPassword(latest).expect(200);
  });

  it('answers 429 RATE_LIMITED with Retry-After beyond the per-address limit', async () => {
    const from = freshAddress();
    for (let i = 0; i < 3; i++) await requestReset(uniqueEmail('flood'), from).expect(202);
    const refused = await requestReset(uniqueEmail('flood'), from).expect(429);
    expect(refused.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });

  it('keeps a banned account out: 403 ACCOUNT_BANNED, the password unchanged and the token unused', async () => {
    const player = await signUpPlayer(t);
    await requestReset(player.email, freshAddress()).expect(202);
    const token = await resetToken(player.email);
    const admin = await signedInAdmin(t);
    await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Abuse.' }).expect(200);
    const res = await resetPassword(token).expect(403);
    expect(res.body.error).toBe('ACCOUNT_BANNED');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await tokenRow(token))!.used_at).toBeNull();
    await admin.post(`/api/admin/users/${player.accountId}/unban`, { reason: 'Appeal granted.' }).expect(200);
    await logIn(t, player.email, player.password);
  });

  it('is purged by the retention job once used or expired; a live link stays', async () => {
    const [used, waiting] = [await signUpPlayer(t), await signUpPlayer(t)];
    for (const player of [used, waiting]) await requestReset(player.email, freshAddress()).expect(202);
    await resetPassword(await resetToken(used.email)).expect(200);
    const live = await resetToken(waiting.email);
    const report = await t.app.nest.get(RetentionService).purge(new Date());
    expect(report.passwordResetTokens).toBeGreaterThanOrEqual(1);
    expect(await tokenRow(live)).toEqual({ used_at: null });
    expect((await t.db.query('SELECT 1 FROM password_reset_tokens WHERE account_id = $1', [used.accountId])).rows).toEqual([]);
    await resetPassword(live).expect(200);
  });

  it('does the same work for an unknown e-mail as for a known one: the same statements, in the same order, one row stored', async () => {
    // Timing itself is never asserted (a loaded machine would make it flaky): the database work that
    // decides it is. Mail goes after the answer, and the known e-mail's mail is checked elsewhere.
    const log = recordStatements(t);
    const statementsFor = async (email: string): Promise<string[]> => {
      const { result: res, statements } = await log.during(() => requestReset(email, freshAddress()));
      expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: { sent: true } });
      return statements.map((text) => text.replace(/\s+/g, ' '));
    };
    try {
      const player = await signUpPlayer(t);
      const rows = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM password_reset_tokens')).rows[0]!.n);
      const before = await rows();
      const known = await statementsFor(player.email);
      const afterKnown = await rows();
      const unknown = await statementsFor(uniqueEmail('nobody'));
      expect(unknown).toEqual(known);
      expect(known.length).toBeGreaterThan(0);
      expect([afterKnown - before, (await rows()) - afterKnown]).toEqual([1, 1]);
    } finally {
      log.restore();
    }
  });

  it('refuses both from another origin (403 FORBIDDEN), as /auth/login', async () => {
    const evil = 'https://evil.example';
    expect((await t.http().post('/auth/password-reset').set('Origin', evil).send({ email: uniqueEmail() }).expect(403)).body.error).toBe('FORBIDDEN');
    expect((await t.http().post('/auth/reset-password').set('Origin', evil).send({ token: 'A'.repeat(43), password: NEW_PASSWORD }).expect(403)).body.error).toBe('FORBIDDEN');
  });
});

describe('password reset under the service-wide mail budget (RATE_LIMIT_MAIL_GLOBAL)', () => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await smtpServer();
    // Three mails an hour for the whole service: the sign-up's verification mail and two reset mails.
    t = await createWorldApp({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}`, RATE_LIMIT_MAIL_GLOBAL: '3/3600' } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => smtp.server.close(r));
  });

  it('beyond it answers the same 202 and sends nothing; the earlier link stays valid', async () => {
    const player = await signUpPlayer(t);
    const requestReset = (n: number) => t.http().post('/auth/password-reset').set('X-Forwarded-For', `198.51.100.${n}`).send({ email: player.email });
    await requestReset(1).expect(202);
    await smtp.waitFor(player.email, 1, SUBJECT);
    await requestReset(2).expect(202);
    const mails = await smtp.waitFor(player.email, 2, SUBJECT);
    const latest = LINK.exec(mails[1]!.text)![1]!;
    const over = await requestReset(3).expect(202);
    expect(over.body).toEqual({ sent: true });
    // The budget is spent for every other mail too.
    const other = await signUpPlayer(t);
    await t.http().post('/auth/verify-email/resend').set('Cookie', other.cookie).expect(429);
    expect(smtp.mailsTo(player.email, SUBJECT)).toHaveLength(2);
    // No third link was made (it would have voided this one).
    await t.http().post('/auth/reset-password').send({ token: latest, password: NEW_PASSWORD }).expect(200);
  });
});
