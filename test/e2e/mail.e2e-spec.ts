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

  it('mails the verification link; following it verifies the e-mail', async () => {
    const email = uniqueEmail();
    const res = await t.http().post('/auth/signup').send({ email, password: DEFAULT_PASSWORD, displayName: 'Ada' }).expect(201);
    const deadline = Date.now() + 10_000;
    while (!smtp.inbox.some((m) => m.to.some((to) => to.includes(email))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const mail = smtp.inbox.find((m) => m.to.some((to) => to.includes(email)));
    expect(mail).toBeDefined();
    expect(mail!.data).toContain('Subject: Verify your e-mail address');
    // The body may be quoted-printable: undo soft line breaks and =XX escapes.
    const body = mail!.data.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const token = /verify-email\?token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(body)?.[1];
    expect(token).toBeDefined();
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
