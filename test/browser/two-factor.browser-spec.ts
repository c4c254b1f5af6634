/**
 * Two-factor authentication in a real browser (CONTRACT §20 pages): on /me/settings "Set up
 * two-factor" shows a QR code and the secret as text; the code (computed here with otplib from the
 * secret read off the page: nothing is scanned) and "Turn on" show the 10 recovery codes once;
 * signing out and in again asks for "Code" after the password ("Verify"), where a recovery code
 * works too, and after a password reset; "Turn off" asks "Current password" and "Code". Axe at 1280 and 360 px, light and dark,
 * on the settings states and the code step.
 */
import { generate } from 'otplib';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, newContext, pageProblems, startBrowserWorld } from '../support/browser';
import { smtpServer, SmtpSink } from '../support/smtp';

const totp = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

describe('two-factor authentication in a real browser (CONTRACT §20)', () => {
  let world: BrowserWorld;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await smtpServer();
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD, MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await world?.close();
    await new Promise((resolve) => smtp?.server.close(resolve));
  });

  it('set up → turn on → recovery codes → sign out → password then "Code" → signed in; a recovery code works there too, and after a password reset; then turn off', async () => {
    const ada = await signUpVerifiedPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    const problems: string[] = [];

    const signInWithPassword = async () => {
      await page.goto('/auth/login?next=/me/settings');
      const signin = page.getByRole('form', { name: 'Sign in' });
      await signin.getByLabel('E-mail address').fill(ada.email);
      await signin.getByLabel('Password').fill(ada.password);
      await signin.getByRole('button', { name: 'Sign in' }).click();
    };

    await signInWithPassword();
    await page.waitForURL((url) => url.pathname === '/me/settings');
    const section = page.getByRole('region', { name: 'Two-factor authentication' });
    await section.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    problems.push(...(await pageProblems(page, 'two-factor-off')));

    await section.getByRole('button', { name: 'Set up two-factor' }).click();
    const qr = section.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.locator('svg').waitFor();
    const secret = (await section.locator('code.secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The secret is in no page the server renders: only setup's answer carried it.
    expect(await (await context.request.get('/me/settings')).text()).not.toContain(secret);
    problems.push(...(await pageProblems(page, 'two-factor-setup')));

    // A wrong code is said in the form's alert.
    const enable = section.getByRole('form', { name: 'Scan the code' });
    const right = await totp(secret);
    await enable.getByLabel('Code').fill(right === '000000' ? '000001' : '000000');
    await enable.getByRole('button', { name: 'Turn on' }).click();
    await enable.getByRole('alert').filter({ hasText: 'That code is wrong' }).waitFor();
    await enable.getByLabel('Code').fill(right);
    await enable.getByRole('button', { name: 'Turn on' }).click();
    await section.getByRole('heading', { name: /save your recovery codes/ }).waitFor();
    const codes = (await section.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await section.getByText('They are shown only this once.').waitFor();
    expect(await section.getByText('Two-factor authentication is off.', { exact: false }).isVisible()).toBe(false);
    problems.push(...(await pageProblems(page, 'two-factor-recovery-codes')));

    // After "I have saved them" the section says it is on and offers "Turn off"; the codes are gone from the page.
    await section.getByRole('link', { name: 'I have saved them' }).click();
    await page.getByRole('form', { name: 'Turn off two-factor' }).waitFor();
    expect(await page.content()).not.toContain(codes[0]!);
    problems.push(...(await pageProblems(page, 'two-factor-on')));

    // Sign out, then in: the password, then "Code".
    await context.clearCookies();
    await signInWithPassword();
    const codeForm = page.getByRole('form', { name: 'Enter your code' });
    await codeForm.getByLabel('Code').waitFor();
    expect(await page.getByRole('form', { name: 'Sign in' }).isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Forgot password?' }).isVisible()).toBe(false);
    expect((await context.cookies()).some((c) => c.name === 'auth_session')).toBe(false);
    problems.push(...(await pageProblems(page, 'two-factor-code-step')));
    await codeForm.getByLabel('Code').fill(right);
    await codeForm.getByRole('button', { name: 'Verify' }).click();
    // The code that turned it on was used: refused.
    await codeForm.getByRole('alert').filter({ hasText: 'That code is wrong or was used already.' }).waitFor();
    await codeForm.getByLabel('Code').fill(await totp(secret, 1));
    await codeForm.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/me/settings');
    expect((await context.request.get('/api/me')).status()).toBe(200);

    // A recovery code works on the code step too.
    await context.clearCookies();
    await signInWithPassword();
    await codeForm.getByLabel('Code').fill(codes[0]!);
    await codeForm.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/me/settings');

    // A password reset sets the password, then asks for the code on the same page.
    await context.clearCookies();
    await world.t.http().post('/auth/password-reset').send({ email: ada.email }).expect(202);
    const [mail] = await smtp.waitFor(ada.email, 1, 'Reset your password');
    const link = new URL(/http:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(mail!.text)![0]);
    await page.goto(`${link.pathname}${link.search}`);
    const reset = page.getByRole('form', { name: 'Set a new password' });
    ada.password = 'a new password after the reset';
    await reset.getByLabel('New password').fill(ada.password);
    await reset.getByRole('button', { name: 'Set password' }).click();
    await codeForm.getByLabel('Code').fill(codes[2]!);
    await codeForm.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/me');
    await page.goto('/me/settings');

    // Turn off with the current password and a recovery code.
    const off = page.getByRole('form', { name: 'Turn off two-factor' });
    await off.getByLabel('Current password').fill(ada.password);
    await off.getByLabel('Code').fill(codes[1]!);
    await off.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('status').filter({ hasText: 'Two-factor authentication is off.' }).waitFor();
    await section.getByRole('button', { name: 'Set up two-factor' }).waitFor();

    await context.close();
    expect(problems).toEqual([]);
  });
});
