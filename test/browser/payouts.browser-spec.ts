/**
 * Payouts in a real browser (CONTRACT §22, §17): the developer's "/developer/payouts" (balance,
 * "Payout method", "Payouts") and the admin's "Payouts" section ("Run payouts", "Mark paid" with
 * "Reference", "Mark failed" with "Reason"), found by role and name; axe at 1280 and 360 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, paidSession } from '../support/play';
import { BrowserWorld, newContext, pageProblems, screenshot, signIn, startBrowserWorld } from '../support/browser';

describe('payout pages in a real browser (CONTRACT §22)', () => {
  let world: BrowserWorld;
  let paid: Developer;
  let failing: Developer;

  /** A developer who earned `insertions` × $0.875. */
  async function earningDeveloper(name: string, insertions: number): Promise<Developer> {
    const dev = await createDeveloper(world.t, { displayName: name });
    const game = await publishGame(world.t, dev, { coinsPerCredit: 5 });
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, 50);
    for (let i = 0; i < insertions; i++) await paidSession(world.t, player, game.slug);
    return dev;
  }

  async function signedIn(user: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext(world);
    await signIn(context, user.email, user.password);
    return { context, page: await context.newPage() };
  }

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD, PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '1' });
    paid = await earningDeveloper('Paid Studio', 2);
    failing = await earningDeveloper('Bounced Studio', 3);
    await world.t.http().put('/api/portal/payout-method').set('Cookie', failing.cookie).send({ kind: 'sandbox' }).expect(200);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('shows the developer its balance, saves a payout method (errors in the form), and lists payouts', async () => {
    const { context, page } = await signedIn(paid);
    await page.goto('/developer');
    await page.getByRole('navigation', { name: 'Developer portal' }).getByRole('link', { name: 'Payouts' }).click();
    await page.waitForURL('**/developer/payouts');
    expect(await page.getByRole('link', { name: 'Payouts' }).getAttribute('aria-current')).toBe('page');
    const facts = Object.fromEntries(
      await Promise.all(
        (await page.locator('dl.facts > div').all()).map(async (fact) => [await fact.getByRole('term').textContent(), await fact.getByRole('definition').textContent()]),
      ),
    );
    expect(facts).toEqual({ Balance: '$1.75', Held: '$0.00', Available: '$1.75', 'Minimum payout': '$1.00' });
    expect(await page.getByRole('table', { name: 'Payouts' }).textContent()).toContain('No payouts yet.');

    const form = page.getByRole('form', { name: 'Payout method' });
    await form.getByLabel('Method').selectOption('stripe');
    await form.getByLabel('Stripe account id').fill('acct-nope');
    await form.getByRole('button', { name: 'Save payout method' }).click();
    await form.getByRole('alert').filter({ hasText: /^Stripe account id/ }).waitFor();
    expect(await form.getByLabel('Stripe account id').inputValue()).toBe('acct-nope');
    expect((await world.t.db.query('SELECT count(*)::int AS n FROM payout_methods WHERE developer_id = $1', [paid.developerId])).rows[0].n).toBe(0);

    await form.getByLabel('Method').selectOption('sandbox');
    await form.getByLabel('Stripe account id').fill('');
    await form.getByRole('button', { name: 'Save payout method' }).click();
    await page.getByRole('status').filter({ hasText: 'Payout method saved' }).waitFor();
    expect(await page.getByRole('form', { name: 'Payout method' }).getByLabel('Method').inputValue()).toBe('sandbox');
    expect((await world.t.db.query('SELECT kind FROM payout_methods WHERE developer_id = $1', [paid.developerId])).rows).toEqual([{ kind: 'sandbox' }]);

    expect(await pageProblems(page, 'developer-payouts')).toEqual([]);
    await context.close();
  });

  it('lets an admin run payouts (asking first), mark one paid with a reference and one failed with a reason', async () => {
    await world.t.http().put('/api/portal/payout-method').set('Cookie', paid.cookie).send({ kind: 'sandbox' }).expect(200);
    const { context, page } = await signedIn({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Payouts' }).click();
    const section = page.getByRole('region', { name: 'Payouts' });
    await section.getByRole('button', { name: 'Run payouts' }).click();
    const ask = section.getByRole('dialog', { name: 'Run payouts now?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect((await world.t.db.query('SELECT count(*)::int AS n FROM payouts')).rows[0].n).toBe(0);
    await section.getByRole('button', { name: 'Run payouts' }).click();
    await section.getByRole('dialog', { name: 'Run payouts now?' }).getByRole('button', { name: 'Confirm payout run' }).click();
    await page.getByRole('status').filter({ hasText: 'Payout run done' }).waitFor();

    const table = section.getByRole('table', { name: 'Payouts' });
    const header = await table.getByRole('columnheader').allTextContents();
    expect(header.slice(0, 4)).toEqual(['Developer', 'Amount', 'Status', 'Created']);
    const paidRow = table.getByRole('row').filter({ hasText: 'Paid Studio' });
    const failingRow = table.getByRole('row').filter({ hasText: 'Bounced Studio' });
    expect(await paidRow.textContent()).toContain('$1.75');
    expect(await failingRow.textContent()).toContain('$2.62');
    expect(await paidRow.textContent()).toContain('pending');
    expect(await pageProblems(page, 'admin-payouts')).toEqual([]);

    await paidRow.getByRole('button', { name: 'Mark paid' }).click();
    const markPaid = paidRow.getByRole('dialog');
    await markPaid.getByLabel('Reference').fill('BANK-2026-11-28');
    await markPaid.getByRole('button', { name: 'Confirm' }).click();
    await table.getByRole('row').filter({ hasText: 'Paid Studio' }).filter({ hasText: 'BANK-2026-11-28' }).waitFor();

    await failingRow.getByRole('button', { name: 'Mark failed' }).click();
    const markFailed = failingRow.getByRole('dialog');
    await markFailed.getByLabel('Reason').fill('The bank returned it');
    await markFailed.getByRole('button', { name: 'Confirm', exact: true }).click();
    await table.getByRole('row').filter({ hasText: 'Bounced Studio' }).filter({ hasText: 'failed: The bank returned it' }).waitFor();
    await screenshot(page, 'admin-payouts-done');

    expect((await world.t.db.query('SELECT d.display_name, p.status FROM payouts p JOIN developers d ON d.id = p.developer_id ORDER BY 1')).rows).toEqual([
      { display_name: 'Bounced Studio', status: 'failed' },
      { display_name: 'Paid Studio', status: 'paid' },
    ]);
    await context.close();

    // The developer sees it.
    const dev = await signedIn(paid);
    await dev.page.goto('/developer/payouts');
    const row = dev.page.getByRole('table', { name: 'Payouts' }).getByRole('row').nth(1);
    expect(await row.textContent()).toContain('paid');
    expect(await row.textContent()).toContain('BANK-2026-11-28');
    expect(await dev.page.locator('dl.facts').textContent()).toContain('$0.00');
    expect(await pageProblems(dev.page, 'developer-payouts-paid')).toEqual([]);
    await dev.context.close();
  });
});
