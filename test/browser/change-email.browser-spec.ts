/**
 * Changing the e-mail address in a real browser (CONTRACT §20 pages): /me/settings → form "Change
 * e-mail" ("New e-mail address", "Current password", "Send confirmation") → the status and the
 * change waiting for its link → the link from the mail (a real SMTP sink) → /me/settings with the
 * new e-mail; the old e-mail no longer signs in, the new one does; the used link answers the
 * "invalid or expired" page. Axe at 1280 and 360 px, light and dark, on both pages.
 */
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer, uniqueEmail } from '../support/factories';
import { smtpServer, SmtpSink } from '../support/smtp';
import { BrowserWorld, newContext, pageProblems, signIn, startBrowserWorld } from '../support/browser';


describe('changing the e-mail address in a real browser (CONTRACT §20)', () => {
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

  it('settings → change e-mail → the link from the mail → settings shows the new e-mail; the old one no longer signs in, the new one does', async () => {
    const ada = await signUpVerifiedPlayer(world.t);
    const newEmail = uniqueEmail('ada-moved');
    const context = await newContext(world);
    await signIn(context, ada.email, ada.password);
    const page = await context.newPage();

    await page.goto('/me/settings');
    const form = page.getByRole('form', { name: 'Change e-mail' });
    // The wrong password is said in the form's alert; what was typed stays.
    await form.getByRole('textbox', { name: 'New e-mail address' }).fill(newEmail);
    await form.getByLabel('Current password').fill('not my password');
    await form.getByRole('button', { name: 'Send confirmation' }).click();
    await form.getByRole('alert').filter({ hasText: 'The current password is wrong.' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'New e-mail address' }).inputValue()).toBe(newEmail);

    await form.getByLabel('Current password').fill(ada.password);
    await form.getByRole('button', { name: 'Send confirmation' }).click();
    await page.getByRole('status').filter({ hasText: 'We sent a confirmation link to the new address.' }).waitFor();
    await form.getByText(`Waiting for confirmation: ${newEmail}`).waitFor();
    // The current e-mail is still the one the page names.
    await page.getByText(`You sign in with ${ada.email}.`).waitFor();
    expect(await pageProblems(page, 'change-email-pending')).toEqual([]);

    const [mail] = await smtp.waitFor(newEmail, 1, 'Confirm your new e-mail address');
    expect(mail).toBeDefined();
    const link = new URL(/http:\/\/\S+\/auth\/confirm-email\?token=[A-Za-z0-9_-]{43}/.exec(mail!.text)![0]);
    expect(mail!.html).toContain(link.href);
    const [notice] = await smtp.waitFor(ada.email, 1, 'Your e-mail address may change');
    expect(notice!.text).not.toContain(link.search);

    await page.goto(`${link.pathname}${link.search}`);
    await page.waitForURL((url) => url.pathname === '/me/settings');
    await page.getByText(`You sign in with ${newEmail}.`).waitFor();
    expect(await form.getByText('Waiting for confirmation').count()).toBe(0);

    const stranger = await world.browser.newContext({ baseURL: world.origin });
    expect((await stranger.request.post('/auth/login', { data: { email: ada.email, password: ada.password } })).status()).toBe(401);
    expect((await stranger.request.post('/auth/login', { data: { email: newEmail, password: ada.password } })).status()).toBe(200);

    // The link works once: followed again, a page says it is invalid or expired.
    const used = await page.goto(`${link.pathname}${link.search}`);
    expect(used!.status()).toBe(400);
    await page.getByRole('heading', { name: 'This link is invalid or expired', level: 1 }).waitFor();
    expect(await pageProblems(page, 'change-email-link-invalid')).toEqual([]);
    await Promise.all([context.close(), stranger.close()]);
  });
});
