/**
 * The statement part of `/developer/payouts` in a real browser (CONTRACT §22, §17.1, §17.2): select
 * "Month" (options YYYY-MM, newest first; choosing one reloads the page), table "Statement" with a
 * row per game and the total in §17.2's money, link "Download CSV" to the month's `?format=csv`
 * (which downloads the same numbers); axe at 1280×800 and 360×740.
 */
import type { Page } from 'playwright-core';
import { behindTriggers } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, newContext, pageProblems, signIn, startBrowserWorld } from '../support/browser';
import { fundPlayer, paidSession } from '../support/play';

const monthOf = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
};

describe('the statement on /developer/payouts in a real browser', () => {
  let world: BrowserWorld;
  let dev: Developer;
  let slug: string;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    dev = await createDeveloper(world.t, { displayName: 'Statement Studio' });
    // The developer has been here since two months ago (as the owner: nothing in the API moves time).
    await behindTriggers(world.t.db, `UPDATE developers SET created_at = created_at - interval '2 months' WHERE id = $1`, [dev.developerId]);
    const game = await publishGame(world.t, dev, { coinsPerCredit: 3 });
    slug = game.slug;
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, 9);
    for (let i = 0; i < 3; i++) await paidSession(world.t, player, game.slug);
  });
  afterAll(async () => world?.close());

  /** The "Statement" table as text rows (header, games, total). */
  async function statementRows(page: Page): Promise<string[][]> {
    const rows = page.getByRole('table', { name: 'Statement' }).getByRole('row');
    const out: string[][] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const cells = rows.nth(i).locator('th, td');
      const texts: string[] = [];
      for (let j = 0; j < (await cells.count()); j++) texts.push((await cells.nth(j).locator('.value').count()) ? (await cells.nth(j).locator('.value').innerText()).trim() : (await cells.nth(j).innerText()).trim());
      out.push(texts);
    }
    return out;
  }

  it('shows this month by default, every month since the developer joined newest first, the CSV link; choosing a month reloads it; axe finds nothing', async () => {
    const context = await newContext(world);
    await signIn(context, dev.email, dev.password);
    const page = await context.newPage();
    await page.goto('/developer/payouts');
    const month = page.getByRole('combobox', { name: 'Month' });
    expect(await month.locator('option').allInnerTexts()).toEqual([monthOf(0), monthOf(-1), monthOf(-2)]);
    expect(await month.inputValue()).toBe(monthOf(0));
    expect(await statementRows(page)).toEqual([
      ['Game', 'Insertions', 'Coins', 'Gross', 'Earned', 'Voided', 'Net'],
      [slug, '3', '9', '$2.25', '$1.575', '$0.00', '$1.575'],
      ['Total', '3', '9', '$2.25', '$1.575', '$0.00', '$1.575'],
    ]);
    const csv = page.getByRole('link', { name: 'Download CSV' });
    expect(await csv.getAttribute('href')).toBe(`/api/portal/statements/${monthOf(0)}?format=csv`);
    const download = await context.request.get(`/api/portal/statements/${monthOf(0)}?format=csv`);
    expect(await download.text()).toContain(`,${slug},3,9,2.25,1.575,0,1.575\r\ntotal,,3,9,2.25,1.575,0,1.575\r\n`);
    expect(await pageProblems(page, 'developer-payouts-statement')).toEqual([]);

    // Choosing last month reloads the page for it: nothing was earned then.
    await Promise.all([page.waitForURL(`**/developer/payouts?month=${monthOf(-1)}*`), month.selectOption(monthOf(-1))]);
    expect(await page.getByRole('combobox', { name: 'Month' }).inputValue()).toBe(monthOf(-1));
    expect((await statementRows(page)).slice(1)).toEqual([
      [slug, '0', '0', '$0.00', '$0.00', '$0.00', '$0.00'],
      ['Total', '0', '0', '$0.00', '$0.00', '$0.00', '$0.00'],
    ]);
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(`/api/portal/statements/${monthOf(-1)}?format=csv`);
    await context.close();
  });
});
