/**
 * `/admin`'s "Books" section in a real browser (CONTRACT §22, §17.1, §17.2), controls found by role
 * and accessible name: "From", "To", "Check the books", table "Checks" with each check's name as
 * the API spells it and "ok" or "failed"; the API's message in the form's alert with what was typed
 * kept; the outcome announced in view; axe at 1280×800 and 360×740.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { behindTriggers } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, newContext, pageProblems, signIn, startBrowserWorld } from '../support/browser';
import { fundPlayer, paidSession } from '../support/play';

const CHECK_NAMES = ['wallet_ledgers', 'developer_ledgers', 'hash_chains', 'coins_conserved', 'earnings_exact', 'payouts_within_earnings', 'purchase_events', 'voided_scores'];

describe("the admin's Books section in a real browser", () => {
  let world: BrowserWorld;
  let admin: BrowserContext;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    admin = await newContext(world);
    await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    const dev = await createDeveloper(world.t);
    const game = await publishGame(world.t, dev);
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, 3);
    await paidSession(world.t, player, game.slug);
  });
  afterAll(async () => world?.close());

  async function books(): Promise<Page> {
    const page = await admin.newPage();
    await page.goto('/admin');
    await page.getByRole('main').getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Books', exact: true }).click();
    return page;
  }

  /** The "Checks" table as [name, result] rows. */
  async function checksTable(page: Page): Promise<string[][]> {
    const table = page.getByRole('region', { name: 'Books' }).getByRole('table', { name: 'Checks' });
    const rows = table.getByRole('row');
    const out: string[][] = [];
    for (let i = 1; i < (await rows.count()); i++) {
      const cells = rows.nth(i).getByRole('cell');
      out.push([(await cells.nth(0).innerText()).trim(), (await cells.nth(1).innerText()).trim()]);
    }
    return out;
  }

  it('checks the books of a period: every check by its API name, "ok", announced in view; axe finds nothing at 1280 and 360', async () => {
    const page = await books();
    const section = page.getByRole('region', { name: 'Books' });
    const today = new Date().toISOString().slice(0, 10);
    await section.getByLabel('From', { exact: true }).fill(`${today.slice(0, 7)}-01`);
    await section.getByLabel('To', { exact: true }).fill(today);
    await section.getByRole('button', { name: 'Check the books' }).click();
    const status = page.getByRole('region', { name: 'Books' }).getByRole('status');
    await status.waitFor();
    expect(await status.innerText()).toMatch(/^The books hold: all 8 checks are ok/);
    expect(await status.isVisible()).toBe(true);
    expect(await status.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })).toBe(true);
    expect(await checksTable(page)).toEqual(CHECK_NAMES.map((name) => [name, 'ok']));
    // What was asked stays in the fields.
    expect(await page.getByRole('region', { name: 'Books' }).getByLabel('To', { exact: true }).inputValue()).toBe(today);
    expect(await pageProblems(page, 'admin-books')).toEqual([]);
    await page.close();
  });

  it("shows the API's message in the form's alert for a To before From, keeping what was typed", async () => {
    const page = await books();
    const section = page.getByRole('region', { name: 'Books' });
    await section.getByLabel('From', { exact: true }).fill('2026-03-10');
    await section.getByLabel('To', { exact: true }).fill('2026-03-09');
    await section.getByRole('button', { name: 'Check the books' }).click();
    const alert = page.getByRole('region', { name: 'Books' }).getByRole('alert');
    await expectText(alert, 'To: choose a day on or after From.');
    expect(await page.getByRole('region', { name: 'Books' }).getByLabel('From', { exact: true }).inputValue()).toBe('2026-03-10');
    expect(await page.getByRole('region', { name: 'Books' }).getByRole('table', { name: 'Checks' }).count()).toBe(0);
    await page.close();
  });

  it('says "failed" for the checks a balance moved behind the service breaks', async () => {
    await behindTriggers(world.t.db, 'UPDATE wallets SET balance = balance + 5 WHERE id = (SELECT wallet_id FROM ledger_entries ORDER BY id LIMIT 1)');
    const page = await books();
    await page.getByRole('region', { name: 'Books' }).getByRole('button', { name: 'Check the books' }).click();
    await page.getByRole('region', { name: 'Books' }).getByRole('table', { name: 'Checks' }).waitFor();
    const failed = ['wallet_ledgers', 'hash_chains', 'coins_conserved'];
    expect(await checksTable(page)).toEqual(CHECK_NAMES.map((name) => [name, failed.includes(name) ? 'failed' : 'ok']));
    expect(await page.getByRole('region', { name: 'Books' }).getByRole('status').innerText()).toBe(`3 of 8 checks failed: ${failed.join(', ')}.`);
    await page.close();
  });
});

async function expectText(locator: import('playwright-core').Locator, text: string): Promise<void> {
  await locator.filter({ hasText: text }).waitFor();
  expect((await locator.innerText()).trim()).toBe(text);
}
