import { createHash } from 'node:crypto';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

describe('the developer portal key page in a real browser (spec §5: {base_url}/developer/keys)', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('sends a signed-out visitor to the login page and back', async () => {
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/developer/keys');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/developer/keys');
    await context.close();
  });

  it('makes a verified player a developer, then creates a key shown once, lists it and revokes it', async () => {
    const user = await signUpVerifiedPlayer(world.t);
    const context = await newContext(world);
    await signIn(context, user.email, user.password);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto('/developer/keys');

    await page.getByLabel('Developer or studio name').fill('Browser Studio');
    await page.getByRole('button', { name: 'Become a developer' }).click();
    await page.getByRole('heading', { name: 'Create a key' }).waitFor();

    await page.getByLabel('Name').fill('backend one');
    await page.getByLabel('Kind').selectOption('live');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key');
    await shown.filter({ hasText: 'svc_live_' }).waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{32,}$/);
    const row = page.getByTestId('keys').locator('tbody tr').filter({ hasText: 'backend one' });
    await row.waitFor();
    expect(await row.textContent()).toContain(key.slice(0, 12));
    expect(await page.getByTestId('keys').textContent()).not.toContain(key);
    const stored = await world.t.db.query('SELECT key_hash FROM api_keys WHERE name = $1', ['backend one']);
    expect(stored.rows[0].key_hash).toEqual(createHash('sha256').update(key).digest());
    await screenshot(page, 'developer-keys');

    // The key works until it is revoked from the page.
    const before = await fetch(`${world.origin}/api/v1/sessions/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: `Bearer ${key}` } });
    expect(before.status).toBe(404);
    await row.getByRole('button', { name: 'Revoke key backend one' }).click();
    await row.filter({ hasText: 'Revoked' }).waitFor();
    const after = await fetch(`${world.origin}/api/v1/sessions/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    await context.close();
  });
});
