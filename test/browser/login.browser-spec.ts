import type { ConsoleMessage } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpPlayer, uniqueEmail } from '../support/factories';
import { BrowserWorld, newContext, screenshot, startBrowserWorld } from '../support/browser';

describe('the login page in a real browser', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  /** Console errors (a CSP violation shows up here) collected while a page is open. */
  function consoleErrors(messages: ConsoleMessage[]): string[] {
    return messages.filter((m) => m.type() === 'error').map((m) => `${m.text()} ${m.location().url}`);
  }

  it('shows a wrong password as an error in the status region, without leaving the page', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    page.on('console', (m) => messages.push(m));
    await page.goto('/auth/login?next=/games/anything');
    const signInForm = page.getByRole('region', { name: 'Sign in' });
    await signInForm.getByLabel('E-mail address').fill(player.email);
    await signInForm.getByLabel('Password').fill('not the password');
    await signInForm.getByRole('button', { name: 'Sign in' }).click();
    const status = page.getByTestId('login-status');
    await status.filter({ hasText: 'wrong' }).waitFor();
    expect(await status.getAttribute('data-tone')).toBe('error');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await screenshot(page, 'login-wrong-password');
    // Only 401 from the API, never a blocked script.
    expect(consoleErrors(messages).filter((text) => !text.includes('401'))).toEqual([]);
    await context.close();
  });

  it('signs up through the form: the browser is signed in and told to verify the e-mail', async () => {
    const context = await newContext(world);
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    page.on('console', (m) => messages.push(m));
    await page.goto('/auth/login?next=/games/some-game');
    const email = uniqueEmail('browser');
    await page.getByLabel('Display name').fill('Browser Ben');
    await page.locator('#signup-email').fill(email);
    await page.locator('#signup-password').fill('browser-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('login-status').filter({ hasText: 'verification link' }).waitFor();
    const next = page.getByRole('link', { name: 'Continue' });
    expect(await next.getAttribute('href')).toBe('/games/some-game');
    const me = await context.request.get('/api/me');
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, displayName: 'Browser Ben', emailVerified: false, linked: true });
    await screenshot(page, 'login-signed-up');
    expect(consoleErrors(messages)).toEqual([]);
    await context.close();
  });

  it('shows a taken e-mail on sign-up as an error', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/auth/login');
    await page.getByLabel('Display name').fill('Twin');
    await page.locator('#signup-email').fill(player.email);
    await page.locator('#signup-password').fill('browser-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('login-status').filter({ hasText: 'already exists' }).waitFor();
    await context.close();
  });

  it('goes home, not to another site, when next points elsewhere', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/auth/login?next=' + encodeURIComponent('https://evil.example/steal'));
    await page.locator('#signin-email').fill(player.email);
    await page.locator('#signin-password').fill(player.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${world.origin}/`);
    await context.close();
  });
});
