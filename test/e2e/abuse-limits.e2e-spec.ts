import { randomBytes, scryptSync } from 'node:crypto';
import { hashSync } from '@node-rs/argon2';
import { TestApp } from '../support/app';
import { authCookieOf, createWorldApp, DEFAULT_PASSWORD, signUpPlayer, unique, uniqueEmail } from '../support/factories';
import { smtpServer } from '../support/smtp';

/**
 * Issue 14 item 2: sign-up and login floods, verification mail limits, one e-mail rule, password
 * hashing cost. Addresses other than 127.0.0.1 come through X-Forwarded-For (TRUST_PROXY's
 * default trusts the loopback proxy), so one test process can be several clients.
 */
const signUp = (t: TestApp, email: string, from?: string) => {
  const req = t.http().post('/auth/signup');
  if (from) req.set('X-Forwarded-For', from);
  return req.send({ email, password: DEFAULT_PASSWORD, displayName: 'Flood' });
};
const logIn = (t: TestApp, email: string, password: string) => t.http().post('/auth/login').send({ email, password });

function expectRateLimited(res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }, maxSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
  const seconds = Number(res.headers['retry-after']);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
  expect(res.headers['retry-after']).toBe(String(Math.max(1, Math.ceil((res.body.retryAfterMs as number) / 1000))));
}

async function accountExists(t: TestApp, email: string): Promise<boolean> {
  const { rows } = await t.db.query('SELECT 1 FROM accounts WHERE email = $1', [email]);
  return rows.length === 1;
}

describe('sign-up limits per client address and for everyone', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_SIGNUP_PER_ADDRESS: '3/3600', RATE_LIMIT_SIGNUP_GLOBAL: '5/60' } });
  });
  afterAll(async () => t.close());

  it('refuses the 4th sign-up an hour from one address with 429 and creates nothing; other addresses go on until the global limit', async () => {
    for (let i = 0; i < 3; i++) await signUp(t, uniqueEmail('a'), '203.0.113.1').expect(201);
    const email = uniqueEmail('a');
    const refused = await signUp(t, email, '203.0.113.1');
    expectRateLimited(refused, 3600);
    expect(await accountExists(t, email)).toBe(false);

    await signUp(t, uniqueEmail('b'), '203.0.113.2').expect(201);
    await signUp(t, uniqueEmail('c'), '203.0.113.3').expect(201);
    // five sign-ups in the minute: the global limit refuses a new address too
    expectRateLimited(await signUp(t, uniqueEmail('d'), '203.0.113.4'), 60);

    // a minute later the global window has room again; the first address's hour has not passed
    t.clock.advance(60_000);
    await signUp(t, uniqueEmail('d'), '203.0.113.4').expect(201);
    expectRateLimited(await signUp(t, uniqueEmail('a'), '203.0.113.1'), 3600);
  });

  it('checks the origin first: a cross-site sign-up is 403 and does not count', async () => {
    t.clock.advance(60_000);
    for (let i = 0; i < 5; i++) {
      const res = await t.http().post('/auth/signup').set('X-Forwarded-For', '203.0.113.9').set('Origin', 'https://evil.example').send({ email: uniqueEmail('x'), password: DEFAULT_PASSWORD, displayName: 'X' });
      expect(res.status).toBe(403);
    }
    for (let i = 0; i < 3; i++) await signUp(t, uniqueEmail('x'), '203.0.113.9').expect(201);
  });
});

describe('login limits: the check and the count are one atomic step', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_LOGIN_PER_EMAIL: '10/900' } });
  });
  afterAll(async () => t.close());

  it('checks exactly 10 of 35 parallel wrong passwords against a limit of 10; the rest answer 429', async () => {
    const player = await signUpPlayer(t);
    const answers = await Promise.all(Array.from({ length: 35 }, () => logIn(t, player.email, 'wrong password')));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    for (const res of answers.filter((r) => r.status === 429)) expectRateLimited(res, 900);
    // at the limit even the right password waits
    expectRateLimited(await logIn(t, player.email, player.password), 900);
  });
});

describe('one e-mail rule for storage, lookup and the limits (Unicode NFC, whole address lower-cased)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_LOGIN_PER_EMAIL: '3/900' } });
  });
  afterAll(async () => t.close());

  it('stores İnci@… (U+0130) as i̇nci@… and finds it however it is typed', async () => {
    const tag = unique('inci');
    const typed = `İnci.${tag}@Example.TEST`;
    const stored = `i\u0307nci.${tag}@example.test`;
    const res = await signUp(t, typed).expect(201);
    expect(res.body.user.email).toBe(stored);
    expect(await accountExists(t, stored)).toBe(true);
    for (const spelling of [typed, stored, `I\u0307NCI.${tag.toUpperCase()}@EXAMPLE.TEST`, ` ${typed} `.trim()]) {
      await logIn(t, spelling, DEFAULT_PASSWORD).expect(200);
    }
    expect((await signUp(t, stored).expect(409)).body.error).toBe('EMAIL_TAKEN');
  });

  it('counts every spelling of the address against one login limit (the İ lockout cannot be walked around)', async () => {
    const tag = unique('inci');
    await signUp(t, `İnci.${tag}@example.test`).expect(201);
    const spellings = [`İnci.${tag}@example.test`, `i\u0307nci.${tag}@EXAMPLE.test`, `I\u0307nci.${tag}@example.TEST`];
    for (const spelling of spellings) await logIn(t, spelling, 'wrong password').expect(401);
    expectRateLimited(await logIn(t, `İNCI.${tag.toUpperCase()}@example.test`, DEFAULT_PASSWORD), 900);
    expectRateLimited(await logIn(t, `i\u0307nci.${tag}@example.test`, DEFAULT_PASSWORD), 900);
  });
});

describe('password hashes: argon2id at OWASP\'s minimum, older hashes upgraded at the next sign-in', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Production's cost (the other suites hash at the test-only one).
    t = await createWorldApp({ env: { PASSWORD_HASH_COST: 'owasp' } });
  });
  afterAll(async () => t.close());

  const storedHash = async (accountId: string) => (await t.db.query<{ h: string }>('SELECT password_hash AS h FROM accounts WHERE id = $1', [accountId])).rows[0]!.h;
  // A hash the API can no longer produce: written straight into the row, as an older release left it.
  const plant = (accountId: string, hash: string) => t.db.query('UPDATE accounts SET password_hash = $2 WHERE id = $1', [accountId, hash]);

  it('rehashes a scrypt hash of the previous release (N = 2^15) at the next successful sign-in', async () => {
    const player = await signUpPlayer(t);
    const salt = randomBytes(16);
    const key = scryptSync(player.password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    await plant(player.accountId, ['scrypt', 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$'));
    await logIn(t, player.email, 'wrong password').expect(401);
    expect(await storedHash(player.accountId)).toMatch(/^scrypt\$15\$/);
    await logIn(t, player.email, player.password).expect(200);
    expect(await storedHash(player.accountId)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await logIn(t, player.email, player.password).expect(200);
  });

  it('rehashes an argon2id hash with weaker parameters (m = 4 MiB, t = 1) at the next successful sign-in', async () => {
    const player = await signUpPlayer(t);
    await plant(player.accountId, hashSync(player.password, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 }));
    await logIn(t, player.email, player.password).expect(200);
    const upgraded = await storedHash(player.accountId);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await logIn(t, player.email, player.password).expect(200);
    expect(await storedHash(player.accountId)).toBe(upgraded);
  });
});

describe('verification mail limits (per account, per client address)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;

  beforeAll(async () => {
    smtp = await smtpServer();
    t = await createWorldApp({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}`, RATE_LIMIT_MAIL_PER_ACCOUNT: '2/3600', RATE_LIMIT_MAIL_PER_ADDRESS: '2/3600' } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => smtp.server.close(r));
  });

  const mailsTo = (email: string) => smtp.inbox.filter((m) => m.to.some((to) => to.includes(email))).length;
  async function arrived(email: string, count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (mailsTo(email) < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(mailsTo(email)).toBe(count);
  }
  const resend = (cookie: string, from: string) => t.http().post('/auth/verify-email/resend').set('Cookie', cookie).set('X-Forwarded-For', from);

  it('sends the sign-up mail only within the address\'s mail limit; the account is created either way', async () => {
    const [a, b, c, d] = ['mail-a', 'mail-b', 'mail-c', 'mail-d'].map((p) => uniqueEmail(p));
    for (const email of [a!, b!, c!]) await signUp(t, email, '198.51.100.1').expect(201);
    await signUp(t, d!, '198.51.100.2').expect(201);
    await arrived(a!, 1);
    await arrived(b!, 1);
    await arrived(d!, 1);
    expect(mailsTo(c!)).toBe(0);
    expect(await accountExists(t, c!)).toBe(true);
  });

  it('resends the link on request, up to the per-account and per-address limits, and never for a verified address', async () => {
    const email = uniqueEmail('resend');
    const res = await signUp(t, email, '198.51.100.3').expect(201);
    const cookie = authCookieOf(res);
    await arrived(email, 1);
    expect((await resend(cookie, '198.51.100.3').expect(200)).body).toEqual({ sent: true });
    await arrived(email, 2);
    // this address has sent two mails within the hour
    expectRateLimited(await resend(cookie, '198.51.100.3'), 3600);
    // and this account has had two
    expectRateLimited(await resend(cookie, '198.51.100.4'), 3600);
    expect(mailsTo(email)).toBe(2);

    await t.http().post('/auth/verify-email/resend').expect(401);
    const verified = await signUpPlayer(t, { verified: true });
    expect((await resend(verified.cookie, '198.51.100.5').expect(200)).body).toEqual({ sent: false });
  });
});
