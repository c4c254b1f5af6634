import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, screenshot, signIn, startBrowserWorld } from '../support/browser';

const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64) Laptop/1.0';
const PHONE = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) Phone/1.0';

/** `/me/settings` (CONTRACT §20): change password, signed-in devices, sign out one or everywhere else. */
describe('the settings page in a real browser', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await world?.close();
  });

  const contextAs = (userAgent: string): Promise<BrowserContext> => world.browser.newContext({ baseURL: world.origin, viewport: { width: 1100, height: 900 }, userAgent });
  const devices = (page: Page) => page.getByRole('table', { name: 'Signed-in devices' });
  const deviceRows = (page: Page) => devices(page).locator('tbody').getByRole('row');
  const sentToSignIn = async (page: Page) => {
    await page.goto('/me/settings');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/me/settings');
  };

  it('signs a device out by its row and everywhere else, and changes the password (the wrong one said in the alert, the other devices signed out)', async () => {
    const ada = await signUpVerifiedPlayer(world.t);
    // The sign-up's own session is not in a browser: only the two below are.
    await world.t.http().post('/auth/logout').set('Cookie', ada.cookie).expect(204);
    const laptop = await contextAs(LAPTOP);
    const phone = await contextAs(PHONE);
    const visitor = await world.browser.newContext({ baseURL: world.origin });
    await sentToSignIn(await visitor.newPage());
    await signIn(laptop, ada.email, ada.password);
    await signIn(phone, ada.email, ada.password);
    const page = await laptop.newPage();
    const other = await phone.newPage();

    await page.goto('/me');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await expect(deviceRows(page).count()).resolves.toBe(2);
    const mine = deviceRows(page).filter({ hasText: 'Laptop/1.0' });
    await mine.getByText('This device').waitFor();
    await expect(mine.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(0);
    await screenshot(page, 'settings');

    // Sign the phone out by its row: its next page load is sent to sign in.
    await deviceRows(page).filter({ hasText: 'Phone/1.0' }).getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'Device signed out.' }).waitFor();
    await deviceRows(page).filter({ hasText: 'Phone/1.0' }).waitFor({ state: 'detached' });
    await sentToSignIn(other);

    // Sign out everywhere else.
    await signIn(phone, ada.email, ada.password);
    await page.reload();
    await expect(deviceRows(page).count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed out everywhere else.' }).waitFor();
    await page.getByText('No other device is signed in.').waitFor();
    await expect(deviceRows(page).count()).resolves.toBe(1);
    await sentToSignIn(other);

    // Change password: the wrong current one is said in the form's alert, the right one signs the others out.
    await signIn(phone, ada.email, ada.password);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password').fill('a brand new passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').filter({ hasText: 'The current password is wrong.' }).waitFor();
    await form.getByLabel('Current password').fill(ada.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    await expect(deviceRows(page).count()).resolves.toBe(1);
    await sentToSignIn(other);
    expect((await phone.request.post('/auth/login', { data: { email: ada.email, password: ada.password } })).status()).toBe(401);
    await signIn(phone, ada.email, 'a brand new passphrase');

    await Promise.all([laptop.close(), phone.close(), visitor.close()]);
  });
});
