/**
 * The password-reset journey in a real browser (CONTRACT §20 pages): "Forgot password?" on the
 * sign-in page → form "Reset password" → "Check your e-mail" → the link from the mail (a real
 * SMTP sink) → form "Set a new password" → signed in on /me; the used link then says so in the
 * form's alert, and the session from before the reset is signed out.
 */
import { signUpPlayer } from '../support/factories';
import { smtpServer, SmtpSink } from '../support/smtp';
import { BrowserWorld, newContext, screenshot, startBrowserWorld } from '../support/browser';

describe('password reset in a real browser (CONTRACT §20)', () => {
  let world: BrowserWorld;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await smtpServer();
    world = await startBrowserWorld({ MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}` });
  });

  afterAll(async () => {
    await world?.close();
    await new Promise((resolve) => smtp?.server.close(resolve));
  });

  it('forgot → mail → new password → signed in on /me; the used link is refused in the form', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();

    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/forgot');
    const forgot = page.getByRole('form', { name: 'Reset password' });
    await forgot.getByRole('textbox', { name: 'E-mail address' }).fill(player.email);
    await forgot.getByRole('button', { name: 'Send link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await screenshot(page, 'password-reset-sent');

    const [mail] = await smtp.waitFor(player.email, 1, 'Reset your password');
    expect(mail).toBeDefined();
    const link = new URL(/http:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(mail!.text)![0]);
    expect(mail!.html).toContain(link.href);

    await page.goto(`${link.pathname}${link.search}`);
    const reset = page.getByRole('form', { name: 'Set a new password' });
    await reset.getByLabel('New password').fill('a-new-browser-password');
    await screenshot(page, 'password-reset-form');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL((url) => url.pathname === '/me');
    expect((await context.request.get('/api/me')).status()).toBe(200);
    // The session from before the reset is signed out.
    await world.t.http().get('/api/me').set('Cookie', player.cookie).expect(401);

    // The link works once: used, the form says so in its alert.
    await page.goto(`${link.pathname}${link.search}`);
    const again = page.getByRole('form', { name: 'Set a new password' });
    await again.getByLabel('New password').fill('yet-another-password');
    await again.getByRole('button', { name: 'Set password' }).click();
    await again.getByRole('alert').filter({ hasText: 'The reset link is invalid, used or expired' }).waitFor();
    await context.close();
  });
});
