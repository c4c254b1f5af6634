/**
 * `/admin` reads as CONTRACT §17.2 says (issue 27 items 9 and 11), found by role and accessible
 * name: the review row's "Preview" plays that pending version as a preview; coins with thousands
 * separators; a long e-mail cut with an ellipsis (the full address in `title`); ids shortened
 * (the full id in `title` and for screen readers); times as `27 Nov 2026, 19:47 UTC`; the
 * admin's success messages in words; no word broken inside a table at 1280 px, even with a
 * 40-character version label and a 60-character e-mail.
 */
import type { BrowserContext } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, createGame, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';
import { brokenWords } from '../support/broken-words';

const LONG_LABEL = '2.0.0-release-candidate-with-a-long-name'; // 40 characters, one word
const LONG_EMAIL = `${'a-very-long-mailbox-name-for-the-console'.padEnd(47, 'x')}@example.test`; // 60 characters
const TIME = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2} UTC$/;

describe('/admin formats (CONTRACT §17.2)', () => {
  let world: BrowserWorld;
  let admin: BrowserContext;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    admin = await newContext(world);
    await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('previews a pending version from its review row, and writes coins, e-mails, ids, times and messages as §17.2 says', async () => {
    const dev = await createDeveloper(world.t, { displayName: 'Format Studio' });
    // Two pending versions: "Preview" of the older one must play it, not the newest.
    const game = await createGame(world.t, dev, { title: 'Preview Quest', entryUrl: '/demo-games/coin-clicker/?build=1' });
    const newer = await world.t.http().post(`/api/portal/games/${game.gameId}/versions`).set('Cookie', dev.cookie).send({ label: LONG_LABEL, entryUrl: '/demo-games/coin-clicker/?build=2' });
    expect(newer.status).toBe(201);
    const player = await signUpVerifiedPlayer(world.t, { email: LONG_EMAIL, displayName: 'Ada' });

    const page = await admin.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/admin?user=${encodeURIComponent(LONG_EMAIL)}`);
    const users = page.getByRole('region', { name: 'Users' });
    const row = users.getByRole('row').filter({ hasText: 'Ada' });

    // Credit 1,250 coins: the message says what happened, the balance has its thousands separator.
    await row.getByRole('button', { name: 'Credit coins' }).click();
    await row.getByRole('spinbutton', { name: 'Coins' }).fill('1250');
    await row.getByRole('textbox', { name: 'Reason' }).fill('Goodwill for the long outage');
    await row.getByRole('button', { name: 'Credit', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Credited 1,250 coins to Ada.' }).waitFor();
    expect(await users.getByRole('columnheader').nth(3).textContent()).toBe('Balance (coins)');
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('1,250');

    // The 60-character e-mail: cut with a visible ellipsis, whole in its title, never broken.
    const email = row.getByTitle(LONG_EMAIL, { exact: true });
    expect(await email.evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, ellipsis: getComputedStyle(el).textOverflow }))).toEqual({ cut: true, ellipsis: 'ellipsis' });

    // Audit log: "When" in §17.2's words with the ISO instant; the target's id shortened, whole in its title.
    const log = page.getByRole('table', { name: 'Audit log' });
    expect(await log.getByRole('columnheader').allTextContents()).toEqual(['When', 'Actor', 'Action', 'Target', 'Reason']);
    const entry = log.getByRole('row').filter({ hasText: 'Goodwill for the long outage' });
    const when = entry.locator('time');
    expect(await when.textContent()).toMatch(TIME);
    expect(await when.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const target = entry.getByTitle(player.accountId, { exact: true });
    expect(await target.locator('[aria-hidden="true"]').textContent()).toBe(`${player.accountId.slice(0, 8)}…`);
    // A screen reader hears the whole id.
    await entry.getByRole('cell', { name: `user ${player.accountId}`, exact: true }).waitFor();

    // Review: the versions with the long label; no word of any admin table broken at 1280 px.
    const review = page.getByRole('table', { name: 'Pending versions' });
    await review.getByRole('row').filter({ hasText: LONG_LABEL }).waitFor();
    expect(await brokenWords(page)).toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
        await screenshot(page, `admin-formats-${width}-${scheme}`);
        // The long label, e-mail and URL never push the page sideways (on a phone's card they break or are cut).
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // "Preview" on the older pending version plays that version as a preview (a test-mode session).
    const older = review.getByRole('row').filter({ hasText: 'Preview Quest' }).filter({ hasNotText: LONG_LABEL });
    await older.getByRole('link', { name: 'Preview' }).click();
    await page.waitForURL((url) => url.pathname === `/play/${game.slug}`);
    expect(new URL(page.url()).searchParams.get('version')).toBe(game.versionId);
    await page.getByText('Preview · no coins charged').waitFor();
    const frame = page.getByTestId('game-frame');
    expect(await frame.getAttribute('src')).toMatch(new RegExp(`^${world.origin}/demo-games/coin-clicker/\\?build=1#`));
    await page.frameLocator('[data-testid="game-frame"]').locator('#hello').filter({ hasText: 'Hi ' }).waitFor();
    const sessions = await world.t.db.query('SELECT game_version_id, test_mode FROM play_sessions WHERE game_id = $1', [game.gameId]);
    expect(sessions.rows).toEqual([{ game_version_id: game.versionId, test_mode: true }]);
    await page.close();
  });
});
