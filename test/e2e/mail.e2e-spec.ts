import { TestApp } from '../support/app';
import { createWorldApp, DEFAULT_PASSWORD, authCookieOf, uniqueEmail } from '../support/factories';
import { smtpServer } from '../support/smtp';

describe('verification mail over SMTP (MAIL_TRANSPORT=smtp://…)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;

  beforeAll(async () => {
    smtp = await smtpServer();
    t = await createWorldApp({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}` } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => smtp.server.close(r));
  });

  it('mails the verification link in a plain-text and an HTML part; following it verifies the e-mail', async () => {
    const email = uniqueEmail();
    const res = await t.http().post('/auth/signup').send({ email, password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
    const [mail] = await smtp.waitFor(email);
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Verify your e-mail address');
    expect(mail!.from).toContain('<no-reply@localhost>');
    const link = /http:\/\/localhost:3000\/auth\/verify-email\?token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;
    const token = link.exec(mail!.text)?.[1];
    expect(token).toBeDefined();
    // The HTML part carries the same link, as a link and as text to paste.
    expect(mail!.html).toContain(`<a href="http://localhost:3000/auth/verify-email?token=${token}"`);
    expect(mail!.html).toContain('Verify my e-mail address</a>');
    await t.http().get(`/auth/verify-email?token=${token}`).expect(303);
    const me = await t.http().get('/api/me').set('Cookie', authCookieOf(res)).expect(200);
    expect(me.body.emailVerified).toBe(true);
  });

  it('still signs up when the mail server is unreachable', async () => {
    const offline = await createWorldApp({ env: { MAIL_TRANSPORT: 'smtp://127.0.0.1:1' } });
    try {
      const res = await offline.http().post('/auth/signup').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
      expect(res.body.user.emailVerified).toBe(false);
    } finally {
      await offline.close();
    }
  });
});
