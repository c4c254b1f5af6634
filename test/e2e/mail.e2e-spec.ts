import { AddressInfo, createServer, Server } from 'node:net';
import { TestApp } from '../support/app';
import { createWorldApp, DEFAULT_PASSWORD, authCookieOf, uniqueEmail } from '../support/factories';

interface Received {
  from: string;
  to: string[];
  data: string;
}

/** A minimal SMTP server (RFC 5321 happy path): enough to receive what nodemailer sends. */
function smtpServer(): Promise<{ server: Server; port: number; inbox: Received[] }> {
  const inbox: Received[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: Received = { from: '', to: [], data: '' };
    socket.write('220 test.smtp ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          inbox.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-test.smtp\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') (current.from = line), socket.write('250 OK\r\n');
        else if (verb === 'RCPT') current.to.push(line), socket.write('250 OK\r\n');
        else if (verb === 'DATA') (inData = true), socket.write('354 go ahead\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, inbox })));
}

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
