/**
 * `/developer/webhooks` and `/developer/webhooks/{id}` in a real browser (CONTRACT §21): found by
 * role and accessible name ("Add endpoint", "Endpoint URL", a checkbox per event type, "Copy
 * secret", tables "Endpoints" and "Deliveries", "Send test event", "Rotate secret", "Disable" /
 * "Enable", "Delete", "Deliveries", "Retry"), "Webhooks" in the developer navigation, and no
 * serious axe finding at 1280 and 360 px.
 */
import { Webhook } from 'standardwebhooks';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper } from '../support/factories';
import { BrowserWorld, eventually, newContext, pageProblems, signIn, startBrowserWorld } from '../support/browser';
import { webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

const EVENT_TYPES = ['insertion.created', 'insertion.voided', 'score.created', 'score.removed', 'achievement.unlocked', 'session.ended'];

describe('the webhooks pages in a real browser (CONTRACT §21)', () => {
  let world: BrowserWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await webhookReceiver();
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1' });
  });
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('adds an endpoint (secret shown once), sends a test event, rotates, disables, enables, retries a delivery and deletes', async () => {
    const dev = await createDeveloper(world.t);
    const context = await newContext(world);
    await signIn(context, dev.email, dev.password);
    const page = await context.newPage();
    await page.goto('/developer/keys');
    await page.getByRole('navigation', { name: 'Developer portal' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/developer/webhooks');

    const add = page.getByRole('form', { name: 'Add endpoint' });
    await add.getByLabel('Endpoint URL').fill(receiver.url('/browser'));
    for (const type of EVENT_TYPES) expect(await add.getByRole('checkbox', { name: type, exact: true }).isChecked()).toBe(true);
    await add.getByRole('checkbox', { name: 'score.created', exact: true }).uncheck();
    await add.getByLabel('Description').fill('Browser backend');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByTestId('new-secret');
    await shown.filter({ hasText: 'whsec_' }).waitFor();
    const secret = (await shown.textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    const table = page.getByRole('table', { name: 'Endpoints' });
    const row = table.getByRole('row').filter({ hasText: 'Browser backend' });
    await row.waitFor();
    expect(await table.textContent()).not.toContain(secret);
    const [stored] = (await world.t.db.query('SELECT id, events FROM webhook_endpoints WHERE developer_id = $1', [dev.developerId])).rows;
    expect(stored.events).toEqual(EVENT_TYPES.filter((t) => t !== 'score.created'));
    expect(await pageProblems(page, 'developer-webhooks')).toEqual([]);

    await row.getByRole('button', { name: 'Send test event' }).click();
    const [ping] = await receiver.waitFor('/browser');
    expect(new Webhook(secret).verify(ping!.body, ping!.headers)).toMatchObject({ type: 'ping', data: { webhookId: stored.id } });

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await shown.filter({ hasNotText: secret }).filter({ hasText: 'whsec_' }).waitFor();
    const rotated = (await shown.textContent())!;
    expect(rotated).not.toBe(secret);

    await row.getByRole('button', { name: 'Disable' }).click();
    await table.getByRole('row').filter({ hasText: 'Browser backend' }).filter({ hasText: 'Disabled' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Browser backend' }).getByRole('button', { name: 'Enable' }).click();
    await table.getByRole('row').filter({ hasText: 'Browser backend' }).filter({ hasText: 'Enabled' }).waitFor();

    await table.getByRole('row').filter({ hasText: 'Browser backend' }).getByRole('link', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.waitFor();
    expect(new URL(page.url()).pathname).toBe(`/developer/webhooks/${stored.id}`);
    await eventually(async () => (await world.t.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'", [stored.id])).rows[0].n, (n) => n === 1);
    await page.reload();
    const deliveryRow = deliveries.getByRole('row').filter({ hasText: 'ping' });
    await deliveryRow.filter({ hasText: 'Succeeded' }).waitFor();
    expect(await pageProblems(page, 'developer-webhook-deliveries')).toEqual([]);
    await deliveryRow.getByRole('button', { name: 'Retry' }).click();
    await receiver.waitFor('/browser', 2);
    const [second] = receiver.on('/browser').slice(1);
    // Both secrets sign for 24 hours after the rotation.
    expect(second!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    new Webhook(rotated).verify(second!.body, second!.headers);

    await page.getByRole('link', { name: 'Back to webhooks' }).click();
    const again = page.getByRole('table', { name: 'Endpoints' }).getByRole('row').filter({ hasText: 'Browser backend' });
    await again.getByRole('button', { name: 'Delete' }).click();
    await again.getByRole('dialog').getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByRole('table', { name: 'Endpoints' }).getByRole('row').filter({ hasText: 'No endpoints yet.' }).waitFor();
    await context.close();
  });

  it('shows the API\'s message in the form for a bad URL, keeping what was typed', async () => {
    const dev = await createDeveloper(world.t);
    const context = await newContext(world);
    await signIn(context, dev.email, dev.password);
    const page = await context.newPage();
    await page.goto('/developer/webhooks');
    const add = page.getByRole('form', { name: 'Add endpoint' });
    await add.getByLabel('Endpoint URL').fill('not a url');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByRole('alert').filter({ hasText: 'URL' }).waitFor();
    expect(await add.getByLabel('Endpoint URL').inputValue()).toBe('not a url');
    await page.goto('/developer/webhooks/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await context.close();
  });
});
