import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer } from '../support/play';
import { BrowserWorld, pageProblems, screenshot, signIn, startBrowserWorld } from '../support/browser';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
];

/** `/me/settings` (CONTRACT §20): "Download my data" and the form "Delete account", asked in a dialog first. */
describe('downloading my data and deleting my account in a real browser', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await world?.close();
  });

  
  it('downloads the data, asks before deleting, lands on the home page signed out, and the e-mail signs up again', async () => {
    const ada = await signUpVerifiedPlayer(world.t, { displayName: 'Ada Leaving' });
    await fundPlayer(world.t, ada, 12);
    const context = await world.browser.newContext({ baseURL: world.origin, viewport: VIEWPORTS[0] });
    await signIn(context, ada.email, ada.password);
    const page = await context.newPage();
    await page.goto('/me/settings');

    // "Download my data": a JSON file of the account.
    const link = page.getByRole('link', { name: 'Download my data' });
    expect(await link.getAttribute('href')).toBe('/api/me/export');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^arcade-export-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(chunk as Buffer);
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8')).account).toMatchObject({ id: ada.accountId, email: ada.email });

    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Current password').waitFor();
    expect(await pageProblems(page, 'account-deletion-settings')).toEqual([]);

    // A confirm other than DELETE: the API's message in the form's alert, nothing deleted.
    await form.getByLabel('Current password').fill(ada.password);
    await form.getByLabel('Type DELETE to confirm').fill('delete');
    await form.getByRole('button', { name: 'Delete account' }).click();
    let dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByRole('button', { name: 'Confirm deletion' }).click();
    await form.getByRole('alert').waitFor();
    await page.goto('/me/settings');

    // Cancel changes nothing.
    await form.getByLabel('Current password').fill(ada.password);
    await form.getByLabel('Type DELETE to confirm').fill('DELETE');
    await form.getByRole('button', { name: 'Delete account' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    expect(await pageProblems(page, 'account-deletion-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await world.t.db.query('SELECT erased_at FROM accounts WHERE id = $1', [ada.accountId])).rows[0].erased_at).toBeNull();

    // Confirm: the home page, signed out, with the message.
    await form.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByRole('button', { name: 'Confirm deletion' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('status').filter({ hasText: 'Your account is deleted and you are signed out.' }).waitFor();
    await screenshot(page, 'account-deletion-home');
    await page.goto('/me/settings');
    expect(new URL(page.url()).pathname).toBe('/auth/login');

    // The same e-mail signs up again, as a new account.
    const signUp = page.getByRole('form', { name: 'Sign up' });
    await signUp.getByLabel('Display name').fill('Ada Again');
    await signUp.getByLabel('E-mail address').fill(ada.email);
    await signUp.getByLabel('Password').fill('a fresh passphrase');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname !== '/auth/login');
    const accounts = await world.t.db.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [ada.email]);
    expect(accounts.rows).toHaveLength(1);
    expect(accounts.rows[0]!.id).not.toBe(ada.accountId);

    await context.close();
  });
});
