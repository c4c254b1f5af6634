/**
 * The developer pages read as CONTRACT §17.2 says (issue 27 items 9, 10, 11 and 3), found by role
 * and accessible name: money as `$0.175`, counts with thousands separators, times as `27 Nov 2026,
 * 19:47 UTC` and days as `27 Nov 2026`, long URLs and key prefixes cut with an ellipsis; the
 * earnings chart readable on a phone; "Add version" says the version waits for an admin's review,
 * where the eye is; no word broken inside a table at 1280 px, even with a 40-character label.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { dateText, moneyText } from '../../src/http/pages/formats';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApiKey, createDeveloper, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, paidSession } from '../support/play';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';
import { brokenWords } from '../support/broken-words';

const LONG_LABEL = '2.0.0-release-candidate-with-a-long-name'; // 40 characters, one word
const LONG_URL = 'https://cdn.example-studio.test/builds/2026/11/release-candidate-with-a-long-name/index.html';
const TIME = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2} UTC$/;
const DAY = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/;

/** The text of each cell of the row that contains `rowText` (textContent: the narrow screens' column names are CSS only). */
async function cellsOf(page: Page, table: string, rowText: string): Promise<string[]> {
  const row = page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ hasText: rowText });
  return (await row.locator('td').allTextContents()).map((text) => text.trim());
}

describe('the developer pages read as §17.2 says', () => {
  let world: BrowserWorld;
  let dev: Developer;
  let context: BrowserContext;
  let game: { gameId: string; slug: string; title: string };

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    dev = await createDeveloper(world.t, { displayName: 'Format Studio' });
    // One coin a credit: a paid insertion earns the developer 70% of $0.25, $0.175 (three decimals).
    const title = 'Penny Arcade';
    const published = await publishGame(world.t, dev, { coinsPerCredit: 1, title });
    game = { gameId: published.gameId, slug: published.slug, title };
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, 5);
    await paidSession(world.t, player, game.slug);
    // A pending version with a 40-character label and a long entry URL.
    const version = await world.t.http().post(`/api/portal/games/${game.gameId}/versions`).set('Cookie', dev.cookie).send({ label: LONG_LABEL, entryUrl: LONG_URL });
    expect(version.status).toBe(201);
    await createApiKey(world.t, dev, 'live', 'production backend');
    context = await newContext(world);
    await signIn(context, dev.email, dev.password);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('writes money, counts, days and times in §17.2\'s words, and breaks no word in a table at 1280 px', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });

    // Your games: this month's earnings in dollars.
    await page.goto('/developer');
    expect(await cellsOf(page, 'Your games', game.slug)).toEqual([game.title, game.slug, 'published', '1.0.0', '$0.175']);
    expect(await brokenWords(page)).toEqual([]);

    // Earnings: dollars with their exact third decimal, no "(USD)" in the headers.
    await page.goto('/developer/earnings');
    const earnings = page.getByRole('table', { name: 'Earnings', exact: true });
    expect(await earnings.getByRole('columnheader').allTextContents()).toEqual(['Game', 'Slug', 'Insertions', 'Coins', 'Gross', 'Earned']);
    expect(await cellsOf(page, 'Earnings', game.slug)).toEqual([game.title, game.slug, '1', '1', '$0.25', '$0.175']);
    expect((await earnings.locator('tfoot td').allTextContents()).map((text) => text.trim())).toEqual(['', '1', '1', '$0.25', '$0.175']);

    // Daily earnings: the same 30 days as the API, each day a <time datetime="YYYY-MM-DD"> reading "27 Nov 2026".
    const api = await context.request.get('/api/portal/earnings/daily');
    const days = (await api.json()).days as { date: string; earnedUsd: string }[];
    const daily = page.getByRole('table', { name: 'Daily earnings' });
    const dates = daily.locator('tbody time');
    expect(await dates.evaluateAll((times) => times.map((time) => time.getAttribute('datetime')))).toEqual(days.map((day) => day.date));
    expect(await dates.allTextContents()).toEqual(days.map((day) => dateText(day.date)));
    expect(await dates.first().textContent()).toMatch(DAY);
    expect(await daily.locator('tbody td:nth-child(4)').allTextContents()).toEqual(days.map((day) => moneyText(day.earnedUsd)));
    expect(await cellsOf(page, 'Daily earnings', dateText(days.at(-1)!.date))).toEqual([dateText(days.at(-1)!.date), '1', '1', '$0.175']);
    expect(await brokenWords(page)).toEqual([]);

    // The game's page: the 40-character label whole, the long URL cut with an ellipsis, the status in words, times in §17.2's words.
    await page.goto(`/developer/games/${game.gameId}`);
    const versions = page.getByRole('table', { name: 'Versions' });
    const pending = versions.getByRole('row').filter({ hasText: LONG_LABEL });
    expect(await pending.getByRole('cell').nth(2).textContent()).toContain('Waiting for review');
    const url = pending.getByTitle(LONG_URL, { exact: true });
    expect(await url.evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, ellipsis: getComputedStyle(el).textOverflow }))).toEqual({ cut: true, ellipsis: 'ellipsis' });
    const added = pending.locator('time');
    expect(await added.textContent()).toMatch(TIME);
    expect(await added.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await brokenWords(page)).toEqual([]);

    // Keys: the prefix cut visibly, never broken; "Created" in §17.2's words.
    await page.goto('/developer/keys');
    const key = page.getByRole('table', { name: 'Your keys' }).getByRole('row').filter({ hasText: 'production backend' });
    expect(await key.locator('time').first().textContent()).toMatch(TIME);
    expect(await key.locator('.long-text').textContent()).toMatch(/^svc_live_[\w-]+…$/);
    expect(await brokenWords(page)).toEqual([]);
    await page.close();
  });

  it('draws the earnings chart readable at 360 px, in dollars, beside the same 30 numbers', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/developer/earnings');
    const chart = page.getByRole('img', { name: /^Daily earnings/ });
    await chart.waitFor();
    // Every label of the chart's figure, as rendered: its font size on screen and its box.
    const labels = await chart.evaluate((svg) => {
      const figure = svg.closest('figure') ?? svg;
      const found: { text: string; fontPx: number; height: number }[] = [];
      for (const element of Array.from(figure.querySelectorAll('*'))) {
        const own = Array.from(element.childNodes).filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
        if (!own || element.closest('title')) continue;
        const scale = element instanceof SVGGraphicsElement ? Math.abs(element.getScreenCTM()?.d ?? 1) : 1;
        found.push({ text: own, fontPx: parseFloat(getComputedStyle(element).fontSize) * scale, height: element.getBoundingClientRect().height });
      }
      return found;
    });
    expect(labels.length).toBeGreaterThanOrEqual(4);
    for (const label of labels) {
      expect({ label: label.text, readable: label.fontPx >= 12 && label.height >= 12 }).toEqual({ label: label.text, readable: true });
    }
    const money = labels.map((label) => label.text).filter((text) => text.includes('$') || /^-?[\d.,]+$/.test(text));
    expect(money).toContain('$0.175');
    for (const text of money) expect(text).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d{2,3}$/);
    expect(await page.getByRole('table', { name: 'Daily earnings' }).locator('tbody tr').count()).toBe(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `developer-earnings-360-${scheme}`);
    }
    await page.close();
  });

  it('says after "Add version" that the version waits for an admin\'s review, in view at 360 px', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/developer/games/${game.gameId}`);
    const form = page.getByRole('form', { name: 'Add version' });
    await form.getByLabel('Label').fill('2.1.0');
    await form.getByLabel('Entry URL').fill('/demo-games/coin-clicker/');
    await form.getByRole('button', { name: 'Add version' }).click();
    const said = page.getByRole('status').filter({ hasText: "Version added. It waits for an admin's review" });
    await said.waitFor();
    const box = (await said.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    const row = page.getByRole('table', { name: 'Versions' }).getByRole('row').filter({ hasText: '2.1.0' });
    expect(await row.getByRole('cell').nth(2).textContent()).toContain('Waiting for review');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'developer-version-added-360');
    await page.close();
  });
});
