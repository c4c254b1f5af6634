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

  it('sends a signed-out visitor to the sign-in page and back', async () => {
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
    await page.goto('/developer/keys');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();

    await page.goto('/developer');
    const become = page.getByRole('form', { name: 'Become a developer' });
    await become.getByLabel('Display name').fill('Browser Studio');
    await become.getByRole('button', { name: 'Become a developer' }).click();
    await page.getByRole('table', { name: 'Your games' }).waitFor();

    await page.goto('/developer/keys');
    const create = page.getByRole('form', { name: 'Create key' });
    await create.getByLabel('Name').fill('backend one');
    await create.getByLabel('Kind').selectOption('live');
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key');
    await shown.filter({ hasText: 'svc_live_' }).waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{32,}$/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    const table = page.getByRole('table', { name: 'Your keys' });
    const row = table.getByRole('row').filter({ hasText: 'backend one' });
    await row.waitFor();
    expect(await row.textContent()).toContain(key.slice(0, 12));
    expect(await table.textContent()).not.toContain(key);
    const stored = await world.t.db.query('SELECT key_hash FROM api_keys WHERE name = $1', ['backend one']);
    expect(stored.rows[0].key_hash).toEqual(createHash('sha256').update(key).digest());
    await screenshot(page, 'developer-keys');

    // The key works until it is revoked from the page.
    const before = await fetch(`${world.origin}/api/v1/sessions/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: `Bearer ${key}` } });
    expect(before.status).toBe(404);
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByRole('dialog').getByRole('button', { name: 'Confirm revoke' }).click();
    await table.getByRole('row').filter({ hasText: 'backend one' }).filter({ hasText: 'Revoked' }).waitFor();
    const after = await fetch(`${world.origin}/api/v1/sessions/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    await context.close();
  });

  it('shows the API\'s message in the form, keeping what was typed', async () => {
    const user = await signUpVerifiedPlayer(world.t);
    const context = await newContext(world);
    await signIn(context, user.email, user.password);
    expect((await context.request.post('/api/portal/developer', { data: { displayName: 'Long Names' } })).status()).toBe(201);
    const page = await context.newPage();
    await page.goto('/developer/keys');
    const create = page.getByRole('form', { name: 'Create key' });
    const tooLong = 'k'.repeat(41);
    await create.getByLabel('Name').fill(tooLong);
    await create.getByRole('button', { name: 'Create key' }).click();
    await create.getByRole('alert').filter({ hasText: 'name' }).waitFor();
    expect(await create.getByLabel('Name').inputValue()).toBe(tooLong);
    expect((await world.t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE name = $1', [tooLong])).rows[0].n).toBe(0);
    await context.close();
  });
});
