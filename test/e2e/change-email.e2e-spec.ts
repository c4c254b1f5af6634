/**
 * Changing the e-mail address (CONTRACT §20 `POST /api/me/email`, `POST|GET /auth/confirm-email`):
 * the link read from a real SMTP sink at the new address, a notice without a link at the old one,
 * the old e-mail the login until the link is followed; the password checked before the 409 and
 * counted as a failed login; single-use tokens valid 24 hours, stored as their SHA-256, a newer
 * link voiding older ones; a taken address refused at the request and, by the unique index, at
 * the confirmation; the database read back after each.
 */
import { createHash } from 'node:crypto';
import { RetentionService } from '../../src/modules/retention/retention.service';
import type { TestApp } from '../support/app';
import { createWorldApp, logIn, signUpPlayer, signUpVerifiedPlayer, SignedUpUser, uniqueEmail } from '../support/factories';
import { smtpServer, SmtpSink } from '../support/smtp';

const CONFIRM = 'Confirm your new e-mail address';
const NOTICE = 'Your e-mail address may change';
const LINK = /http:\/\/localhost:3000\/auth\/confirm-email\?token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;
const sha256 = (token: string) => createHash('sha256').update(token).digest();

describe('changing the e-mail address (CONTRACT §20)', () => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await smtpServer();
    t = await createWorldApp({
      env: {
        MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}`,
        RATE_LIMIT_LOGIN_PER_EMAIL: '3/900',
        // The sign-up's verification mail counts too: 1 + 3 change requests per account and hour.
        RATE_LIMIT_MAIL_PER_ACCOUNT: '4/3600',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => smtp?.server.close(r));
  });

  const requestChange = (cookie: string, body: object) => t.http().post('/api/me/email').set('Cookie', cookie).send(body);
  const confirm = (token: string) => t.http().post('/auth/confirm-email').send({ token });
  /** The token of the `n`th confirmation mail to the address (1-based), once it has arrived. */
  async function confirmToken(email: string, n = 1): Promise<string> {
    const mails = await smtp.waitFor(email, n, CONFIRM);
    expect(mails.length).toBeGreaterThanOrEqual(n);
    const token = LINK.exec(mails[n - 1]!.text)?.[1];
    expect(token).toBeDefined();
    return token!;
  }
  const accountRow = async (accountId: string) =>
    (await t.db.query<{ email: string; verified: boolean }>('SELECT email, email_verified_at IS NOT NULL AS verified FROM accounts WHERE id = $1', [accountId])).rows[0]!;
  const tokenRows = async (accountId: string) =>
    (
      await t.db.query<{ token_hash: Buffer; new_email: string; used: boolean; valid_seconds: number }>(
        'SELECT token_hash, new_email, used_at IS NOT NULL AS used, extract(epoch FROM expires_at - created_at)::int AS valid_seconds FROM email_change_tokens WHERE account_id = $1 ORDER BY created_at',
        [accountId],
      )
    ).rows;
  const loginStatus = async (email: string, password: string) => (await t.http().post('/auth/login').send({ email, password })).status;
  /** Mails that must not come: wait for a later mail to another address, then look. */
  async function settleMail(): Promise<void> {
    const marker = await signUpPlayer(t);
    await smtp.waitFor(marker.email, 1);
  }

  it('202 { pendingEmail }: a link to the new address, a notice without a link to the old one; the old e-mail stays the login until the link is followed', async () => {
    const ada = await signUpVerifiedPlayer(t);
    const newEmail = uniqueEmail('ada-new');
    const res = await requestChange(ada.cookie, { email: newEmail.toUpperCase(), currentPassword: ada.password }).expect(202);
    expect(res.body).toEqual({ pendingEmail: newEmail });

    const token = await confirmToken(newEmail);
    const [link] = smtp.mailsTo(newEmail, CONFIRM);
    expect(link!.html).toContain(`href="http://localhost:3000/auth/confirm-email?token=${token}"`);
    const [notice] = await smtp.waitFor(ada.email, 1, NOTICE);
    expect(notice!.text).toContain(newEmail);
    for (const body of [notice!.text, notice!.html]) {
      expect(body).not.toContain(token);
      expect(body).not.toContain('confirm-email');
      expect(body).not.toMatch(/href=/);
    }
    expect(smtp.mailsTo(ada.email, CONFIRM)).toEqual([]);
    expect(smtp.mailsTo(newEmail, NOTICE)).toEqual([]);

    // Only the SHA-256 is stored, valid 24 hours, with the normalised new address.
    expect(await tokenRows(ada.accountId)).toEqual([{ token_hash: sha256(token), new_email: newEmail, used: false, valid_seconds: 24 * 3600 }]);
    // Until the link is followed nothing about the login changes.
    expect(await accountRow(ada.accountId)).toEqual({ email: ada.email, verified: true });
    expect((await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200)).body.email).toBe(ada.email);
    await logIn(t, ada.email, ada.password);
    expect(await loginStatus(newEmail, ada.password)).toBe(401);
  });

  it('POST /auth/confirm-email: 200 { user } with the new e-mail, verified; the cookie state as it was; the new e-mail signs in, the old one not; the link works once', async () => {
    // Not verified before: the link proves the new mailbox.
    const bo = await signUpPlayer(t);
    const laptop = await logIn(t, bo.email, bo.password);
    const newEmail = uniqueEmail('bo-new');
    await requestChange(bo.cookie, { email: newEmail, currentPassword: bo.password }).expect(202);
    const token = await confirmToken(newEmail);

    const res = await confirm(token).expect(200);
    expect(res.body.user).toMatchObject({ id: bo.accountId, email: newEmail, emailVerified: true });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await accountRow(bo.accountId)).toEqual({ email: newEmail, verified: true });
    expect((await tokenRows(bo.accountId)).map((row) => row.used)).toEqual([true]);
    // Nobody signed in or out: both sessions go on, now with the new e-mail.
    expect((await t.http().get('/api/me').set('Cookie', bo.cookie).expect(200)).body.email).toBe(newEmail);
    await t.http().get('/api/me').set('Cookie', laptop).expect(200);
    expect(await loginStatus(bo.email, bo.password)).toBe(401);
    await logIn(t, newEmail, bo.password);

    const again = await confirm(token).expect(400);
    expect(again.body).toEqual({ error: 'INVALID_TOKEN', message: expect.any(String) });
    expect(await accountRow(bo.accountId)).toEqual({ email: newEmail, verified: true });
  });

  it('GET /auth/confirm-email (the mailed link): confirms and redirects to /me/settings; a used, unknown or expired link answers an HTML page, 400', async () => {
    const cy = await signUpVerifiedPlayer(t);
    const newEmail = uniqueEmail('cy-new');
    await requestChange(cy.cookie, { email: newEmail, currentPassword: cy.password }).expect(202);
    const token = await confirmToken(newEmail);

    const res = await t.http().get(`/auth/confirm-email?token=${token}`);
    expect([302, 303]).toContain(res.status);
    expect(res.headers.location).toBe('/me/settings');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await accountRow(cy.accountId)).toEqual({ email: newEmail, verified: true });

    const used = await t.http().get(`/auth/confirm-email?token=${token}`).expect(400);
    expect(used.headers['content-type']).toMatch(/^text\/html/);
    expect(used.text).toContain('This link is invalid or expired');
    for (const path of ['/auth/confirm-email?token=' + 'A'.repeat(43), '/auth/confirm-email?token=nonsense', '/auth/confirm-email']) {
      const page = await t.http().get(path).expect(400);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('The confirmation link is invalid, used or expired.');
    }
  });

  it('an expired link (24 hours), an unknown and a malformed token: 400 INVALID_TOKEN, the e-mail unchanged', async () => {
    const di = await signUpVerifiedPlayer(t);
    const newEmail = uniqueEmail('di-new');
    await requestChange(di.cookie, { email: newEmail, currentPassword: di.password }).expect(202);
    const token = await confirmToken(newEmail);
    // Time cannot be moved through the API: age the link in the database.
    await t.db.query("UPDATE email_change_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1", [di.accountId]);
    expect((await confirm(token).expect(400)).body.error).toBe('INVALID_TOKEN');
    const page = await t.http().get(`/auth/confirm-email?token=${token}`).expect(400);
    expect(page.text).toContain('This link is invalid or expired');
    expect((await confirm('A'.repeat(43)).expect(400)).body.error).toBe('INVALID_TOKEN');
    expect((await confirm('not a token').expect(400)).body.error).toBe('INVALID_TOKEN');
    expect((await t.http().post('/auth/confirm-email').send({}).expect(400)).body.error).toBe('INVALID_REQUEST');
    expect(await accountRow(di.accountId)).toEqual({ email: di.email, verified: true });
    expect((await tokenRows(di.accountId)).map((row) => row.used)).toEqual([false]);
  });

  it('a newer request makes the older unused link invalid', async () => {
    const ed = await signUpVerifiedPlayer(t);
    const first = uniqueEmail('ed-first');
    const second = uniqueEmail('ed-second');
    await requestChange(ed.cookie, { email: first, currentPassword: ed.password }).expect(202);
    const older = await confirmToken(first);
    await requestChange(ed.cookie, { email: second, currentPassword: ed.password }).expect(202);
    const newer = await confirmToken(second);
    expect(await tokenRows(ed.accountId)).toEqual([expect.objectContaining({ token_hash: sha256(newer), new_email: second, used: false })]);

    expect((await confirm(older).expect(400)).body.error).toBe('INVALID_TOKEN');
    expect(await accountRow(ed.accountId)).toEqual({ email: ed.email, verified: true });
    expect((await confirm(newer).expect(200)).body.user.email).toBe(second);
  });

  it('409 EMAIL_TAKEN at the request for an address an account has (case and compatibility forms folded as at sign-up, the own one included); nothing stored, nothing mailed', async () => {
    const fay = await signUpVerifiedPlayer(t);
    const other = await signUpVerifiedPlayer(t);
    const [local, domain] = other.email.split('@') as [string, string];
    // Fullwidth letters fold to ASCII (NFKC), case is ignored.
    const fullwidth = `${local.toUpperCase().replace('P', '\uFF30')}@${domain}`;
    for (const email of [other.email, other.email.toUpperCase(), fullwidth, fay.email]) {
      const res = await requestChange(fay.cookie, { email, currentPassword: fay.password }).expect(409);
      expect(res.body).toEqual({ error: 'EMAIL_TAKEN', message: expect.any(String) });
    }
    expect(await tokenRows(fay.accountId)).toEqual([]);
    await settleMail();
    expect(smtp.mailsTo(other.email).filter((m) => m.subject !== 'Verify your e-mail address')).toEqual([]);
    expect(smtp.mailsTo(fay.email, NOTICE)).toEqual([]);
  });

  it('409 EMAIL_TAKEN at the confirmation when another account took the address meanwhile: the unique index decides, the link stays unused', async () => {
    const gus = await signUpVerifiedPlayer(t);
    const wanted = uniqueEmail('wanted');
    await requestChange(gus.cookie, { email: wanted, currentPassword: gus.password }).expect(202);
    const token = await confirmToken(wanted);
    // Someone signs up with it before the link is followed.
    const taker = await signUpPlayer(t, { email: wanted });

    const res = await confirm(token).expect(409);
    expect(res.body).toEqual({ error: 'EMAIL_TAKEN', message: expect.any(String) });
    const page = await t.http().get(`/auth/confirm-email?token=${token}`).expect(409);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(await accountRow(gus.accountId)).toEqual({ email: gus.email, verified: true });
    expect(await accountRow(taker.accountId)).toMatchObject({ email: wanted });
    expect((await tokenRows(gus.accountId)).map((row) => row.used)).toEqual([false]);
    await logIn(t, gus.email, gus.password);
  });

  it('two accounts confirming the same address at once: one gets it, the other 409 EMAIL_TAKEN', async () => {
    const [hal, ida] = [await signUpVerifiedPlayer(t), await signUpVerifiedPlayer(t)];
    const wanted = uniqueEmail('both-want');
    await requestChange(hal.cookie, { email: wanted, currentPassword: hal.password }).expect(202);
    await requestChange(ida.cookie, { email: wanted, currentPassword: ida.password }).expect(202);
    const tokens = [await confirmToken(wanted, 1), await confirmToken(wanted, 2)];
    const answers = await Promise.all(tokens.map((token) => confirm(token)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const owners = (await t.db.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [wanted])).rows.map((row) => row.id);
    expect(owners).toHaveLength(1);
    expect([hal.accountId, ida.accountId]).toContain(owners[0]);
  });

  it('403 WRONG_PASSWORD comes before 409: a taken address with a wrong password answers 403, and nothing is stored or mailed', async () => {
    const jo = await signUpVerifiedPlayer(t);
    const other = await signUpVerifiedPlayer(t);
    const res = await requestChange(jo.cookie, { email: other.email, currentPassword: 'not the password' }).expect(403);
    expect(res.body).toEqual({ error: 'WRONG_PASSWORD', message: 'The current password is wrong.' });
    const free = await requestChange(jo.cookie, { email: uniqueEmail('jo-new'), currentPassword: 'still not it' }).expect(403);
    expect(free.body.error).toBe('WRONG_PASSWORD');
    expect(await tokenRows(jo.accountId)).toEqual([]);
    await settleMail();
    expect(smtp.mailsTo(jo.email, NOTICE)).toEqual([]);
  });

  it('a wrong password counts as a failed login for the e-mail (a right one does not): at the limit sign-in and the change answer 429', async () => {
    const kim = await signUpVerifiedPlayer(t);
    const wrong = () => requestChange(kim.cookie, { email: uniqueEmail('kim-new'), currentPassword: 'wrong password' }).expect(403);
    await wrong();
    await wrong();
    // Two failures of three: a right request is not counted...
    await requestChange(kim.cookie, { email: uniqueEmail('kim-new'), currentPassword: kim.password }).expect(202);
    // ...a third failure reaches the limit.
    await wrong();
    const login = await t.http().post('/auth/login').send({ email: kim.email, password: kim.password }).expect(429);
    expect(login.body.error).toBe('RATE_LIMITED');
    const refused = await requestChange(kim.cookie, { email: uniqueEmail('kim-new'), currentPassword: kim.password }).expect(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    t.clock.advance(15 * 60_000 + 1000);
    await logIn(t, kim.email, kim.password);
  });

  it('400 INVALID_REQUEST for a bad body, before the password is checked (not counted): nothing stored, nothing mailed', async () => {
    const lu = await signUpVerifiedPlayer(t);
    for (const body of [
      { email: 'not an address', currentPassword: lu.password },
      { email: `${'x'.repeat(250)}@example.test`, currentPassword: lu.password },
      { email: 'zero\u200Bwidth@example.test', currentPassword: lu.password },
      { email: uniqueEmail('lu-new') },
      { currentPassword: lu.password },
      { email: uniqueEmail('lu-new'), currentPassword: 'x'.repeat(129) },
      { email: 'not an address', currentPassword: 'wrong' },
      { email: 'not an address', currentPassword: 'wrong' },
      { email: 'not an address', currentPassword: 'wrong' },
      { email: uniqueEmail('lu-new'), currentPassword: lu.password, extra: true },
    ]) {
      const res = await requestChange(lu.cookie, body).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    }
    expect(await tokenRows(lu.accountId)).toEqual([]);
    await settleMail();
    expect(smtp.mailsTo(lu.email, NOTICE)).toEqual([]);
    // The wrong passwords above were never checked: the e-mail's login limit is untouched.
    await logIn(t, lu.email, lu.password);
    await requestChange(lu.cookie, { email: uniqueEmail('lu-new'), currentPassword: lu.password }).expect(202);
  });

  it('401 signed out; 403 FORBIDDEN from another origin for the request and the confirmation, changing nothing', async () => {
    const mo = await signUpVerifiedPlayer(t);
    await t.http().post('/api/me/email').send({ email: uniqueEmail('mo-new'), currentPassword: mo.password }).expect(401);
    const cross = await requestChange(mo.cookie, { email: uniqueEmail('mo-new'), currentPassword: mo.password }).set('Origin', 'https://evil.example').expect(403);
    expect(cross.body.error).toBe('FORBIDDEN');
    expect(await tokenRows(mo.accountId)).toEqual([]);

    const newEmail = uniqueEmail('mo-new');
    await requestChange(mo.cookie, { email: newEmail, currentPassword: mo.password }).expect(202);
    const token = await confirmToken(newEmail);
    const refused = await t.http().post('/auth/confirm-email').set('Origin', 'https://evil.example').send({ token }).expect(403);
    expect(refused.body.error).toBe('FORBIDDEN');
    expect(await accountRow(mo.accountId)).toEqual({ email: mo.email, verified: true });
    expect((await tokenRows(mo.accountId)).map((row) => row.used)).toEqual([false]);
    await confirm(token).expect(200);
  });

  it('beyond the per-account mail limit (shared with verification mails): 429, no new link, no mail; the earlier link stays valid', async () => {
    const ned = await signUpPlayer(t); // its verification mail is the first of 4
    const addresses = [uniqueEmail('ned-1'), uniqueEmail('ned-2'), uniqueEmail('ned-3'), uniqueEmail('ned-4')];
    for (const email of addresses.slice(0, 3)) await requestChange(ned.cookie, { email, currentPassword: ned.password }).expect(202);
    const latest = await confirmToken(addresses[2]!);
    const res = await requestChange(ned.cookie, { email: addresses[3], currentPassword: ned.password }).expect(429);
    expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await tokenRows(ned.accountId)).map((row) => row.new_email)).toEqual([addresses[2]]);
    await settleMail();
    expect(smtp.mailsTo(addresses[3]!)).toEqual([]);
    expect(smtp.mailsTo(ned.email, NOTICE)).toHaveLength(3);
    expect((await confirm(latest).expect(200)).body.user.email).toBe(addresses[2]);
  });

  it('following the link voids the unused password-reset links (they went to the old address)', async () => {
    const ola = await signUpVerifiedPlayer(t);
    await t.http().post('/auth/password-reset').send({ email: ola.email }).expect(202);
    const [resetMail] = await smtp.waitFor(ola.email, 1, 'Reset your password');
    const resetToken = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(resetMail!.text)![1]!;
    const newEmail = uniqueEmail('ola-new');
    await requestChange(ola.cookie, { email: newEmail, currentPassword: ola.password }).expect(202);
    await confirm(await confirmToken(newEmail)).expect(200);
    const reset = await t.http().post('/auth/reset-password').send({ token: resetToken, password: 'taken over at last' }).expect(400);
    expect(reset.body.error).toBe('INVALID_TOKEN');
    await logIn(t, newEmail, ola.password);
  });

  it('the retention purge deletes used and expired links; a live one stays and works', async () => {
    const users: SignedUpUser[] = [await signUpVerifiedPlayer(t), await signUpVerifiedPlayer(t), await signUpVerifiedPlayer(t)];
    const emails = users.map(() => uniqueEmail('purge'));
    for (const [i, user] of users.entries()) await requestChange(user.cookie, { email: emails[i], currentPassword: user.password }).expect(202);
    const tokens = await Promise.all(emails.map((email) => confirmToken(email)));
    await confirm(tokens[0]!).expect(200);
    await t.db.query("UPDATE email_change_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1", [users[1]!.accountId]);

    const report = await t.app.nest.get(RetentionService).purge(new Date());
    expect(report.emailChangeTokens).toBeGreaterThanOrEqual(2);
    expect(await tokenRows(users[0]!.accountId)).toEqual([]);
    expect(await tokenRows(users[1]!.accountId)).toEqual([]);
    expect((await tokenRows(users[2]!.accountId)).map((row) => row.used)).toEqual([false]);
    const res = await confirm(tokens[2]!).expect(200);
    expect(res.body.user.email).toBe(emails[2]);
  });
});
