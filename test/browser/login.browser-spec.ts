import type { ConsoleMessage } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpPlayer, uniqueEmail } from '../support/factories';
import { BrowserWorld, newContext, screenshot, startBrowserWorld } from '../support/browser';

describe('the sign-in page in a real browser (CONTRACT §17.1)', () => {
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

  it('shows a wrong password in the form\'s alert, keeping what was typed, without leaving the page', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    page.on('console', (m) => messages.push(m));
    await page.goto('/auth/login?next=/games/anything');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('E-mail address').fill(player.email);
    await form.getByLabel('Password').fill('not the password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: /password/i }).waitFor();
    const body = await (await context.request.post('/auth/login', { data: { email: player.email, password: 'not the password' } })).json();
    expect(await alert.textContent()).toBe(body.message);
    expect(await form.getByLabel('E-mail address').inputValue()).toBe(player.email);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await screenshot(page, 'login-wrong-password');
    // Only 401 from the API, never a blocked script.
    expect(consoleErrors(messages).filter((text) => !text.includes('401'))).toEqual([]);
    await context.close();
  });

  it('signs up through the form and goes on to `next`, signed in', async () => {
    const context = await newContext(world);
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    page.on('console', (m) => messages.push(m));
    await page.goto('/auth/login?next=/games/some-game');
    const email = uniqueEmail('browser');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Display name').fill('Browser Ben');
    await form.getByLabel('E-mail address').fill(email);
    await form.getByLabel('Password').fill('browser-password-1');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/games/some-game');
    const me = await context.request.get('/api/me');
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, displayName: 'Browser Ben', emailVerified: false, linked: true });
    expect(consoleErrors(messages).filter((text) => !text.includes('404'))).toEqual([]);
    await context.close();
  });

  it('shows a taken e-mail on sign-up as an error in the sign-up form', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/auth/login');
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Display name').fill('Twin');
    await form.getByLabel('E-mail address').fill(player.email);
    await form.getByLabel('Password').fill('browser-password-1');
    await form.getByRole('button', { name: 'Create account' }).click();
    await form.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    expect(await page.getByRole('form', { name: 'Sign in' }).getByRole('alert').textContent()).toBe('');
    await context.close();
  });

  it('goes to /me, not to another site, when next points elsewhere; signed in, the sign-in page sends on', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/auth/login?next=' + encodeURIComponent('https://evil.example/steal'));
    await page.locator('#signin-email').fill(player.email);
    await page.locator('#signin-password').fill(player.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${world.origin}/me`);
    await page.goto('/auth/login?next=/games/x');
    expect(new URL(page.url()).pathname).toBe('/games/x');
    await context.close();
  });

  it('signs out from the header', async () => {
    const player = await signUpPlayer(world.t);
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/auth/login');
    await page.locator('#signin-email').fill(player.email);
    await page.locator('#signin-password').fill(player.password);
    await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/me');
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${world.origin}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect((await context.request.get('/api/me')).status()).toBe(401);
    await context.close();
  });
});
