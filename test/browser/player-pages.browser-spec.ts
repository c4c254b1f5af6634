/**
 * The player's pages read and answer as CONTRACT §17.2 says (issue 27 items 7, 9 and 12):
 * - the host page's initials prompt offers every saved score still waiting for initials (§16.9's
 *   pending list), best first, after each round: a better earlier score no longer vanishes;
 * - a form's success message is announced (role="status") and in the viewport, after the reload
 *   that shows the change too, on a phone where the form sits far down the page;
 * - /me writes coins with comma separators, money as `$2.50` and times as `27 Nov 2026, 19:47 UTC`.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, signUpVerifiedPlayer, unique } from '../support/factories';
import { fundPlayer, idempotencyKey } from '../support/play';
import { BrowserWorld, eventually, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

const PRICE = DEMO.game.coinsPerCredit;
const PHONE = { width: 360, height: 740 };
/** §17.2's date-time: `27 Nov 2026, 19:47 UTC`. */
const DATE_TIME = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2} UTC$/;

describe('the player\'s pages (CONTRACT §17.2, issue 27 items 7, 9, 12)', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  /** Wholly inside the window, as a person sees it now. */
  async function inViewport(page: Page, locator: Locator): Promise<boolean> {
    const box = await locator.boundingBox();
    const viewport = page.viewportSize()!;
    return box !== null && box.height > 0 && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width;
  }

  async function seriousAxeProblems(page: Page): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page: page as never }).analyze();
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  }

  it('offers every score still waiting for initials, best first, and each goes on the board once its initials are typed', async () => {
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'Two Rounds' });
    await fundPlayer(world.t, player, 10 * PRICE);
    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const page = await context.newPage();
    await page.goto(`/play/${DEMO.game.slug}`);
    const game = page.frameLocator('[data-testid="game-frame"]');
    await game.locator('#hello').filter({ hasText: 'Hi Two Rounds' }).waitFor();
    const scores = async () =>
      (await world.t.db.query<{ score: number; initials: string | null }>('SELECT score::int AS score, initials FROM scores WHERE player_id = $1 ORDER BY achieved_at', [player.playerId])).rows;

    /** A round of `taps` taps on the coin (10 points each), ended by the player. */
    async function playRound(taps: number): Promise<void> {
      await game.getByRole('button', { name: 'Insert coin' }).click();
      await game.getByRole('button', { name: 'End round' }).and(game.locator(':enabled')).waitFor();
      for (let i = 0; i < taps; i += 1) await game.getByRole('button', { name: 'Tap the coin' }).click();
      await game.getByRole('button', { name: 'End round' }).click();
    }

    // Round one: 30 points, a high score; the player plays on without typing initials.
    await playRound(3);
    await page.getByRole('textbox', { name: /high score 30!/i }).waitFor();
    await eventually(scores, (rows) => rows.length === 1);
    await page.getByTestId('celebration').waitFor({ state: 'hidden', timeout: 10_000 });

    // Round two: 10 points, also a high score. The prompt still offers the better 30 first.
    await playRound(1);
    await eventually(scores, (rows) => rows.length === 2);
    const prompt = page.getByRole('textbox', { name: /high score 30!/i });
    await prompt.waitFor();
    await page.locator('#initials-form').filter({ hasText: '1 more score' }).waitFor();
    expect(await page.locator('#initials-form').textContent()).toContain('1 more score');
    await screenshot(page, 'player-initials-pending-1280');
    await prompt.fill('ace');
    await page.getByRole('button', { name: 'Save' }).click();

    // Saved at once; the next waiting score is offered with the initials just typed.
    const next = page.getByRole('textbox', { name: /high score 10!/i });
    await next.waitFor();
    expect(await next.inputValue()).toBe('ACE');
    expect(await scores()).toEqual([{ score: 30, initials: 'ACE' }, { score: 10, initials: null }]);
    await page.getByRole('button', { name: 'Save' }).click();
    // The first save's message says 'Saved as ACE' too: wait for the form to go, the sign of the second.
    await page.locator('#initials-form').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('message').textContent()).toContain('Saved as ACE');
    expect(await scores()).toEqual([{ score: 30, initials: 'ACE' }, { score: 10, initials: 'ACE' }]);

    // The board shows both, without a reload of anything: the host page's "Leaderboard" link.
    await page.getByRole('link', { name: 'Leaderboard' }).click();
    const rows = page.getByTestId('leaderboard-row').filter({ hasText: 'ACE' });
    await rows.nth(1).waitFor();
    expect((await rows.allTextContents()).map((text) => text.replace(/\s+/g, ' ').replace(/\d{1,2} \w{3} \d{4}$/, ''))).toEqual(
      expect.arrayContaining([expect.stringMatching(/ACE30$/), expect.stringMatching(/ACE10$/)]),
    );
    await context.close();
  });

  it('at 360×740 a success message is a status in the viewport: "Create game" far down /developer, "Save" in Settings after the reload', async () => {
    const dev = await createDeveloper(world.t, { displayName: 'Phone Studio' });
    const context = await newContext(world);
    await signIn(context, dev.email, dev.password);
    const page = await context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto('/developer');

    const create = page.getByRole('form', { name: 'Create game' });
    const slug = unique('phone');
    await create.getByLabel('Slug').fill(slug);
    await create.getByLabel('Title').fill('Phone Game');
    await create.getByLabel('Coins per credit').fill('3');
    await create.getByRole('button', { name: 'Create game' }).click();
    const created = page.getByRole('status').filter({ hasText: 'Game created.' });
    await created.waitFor();
    await page.getByRole('link', { name: 'Phone Game' }).waitFor();
    expect(await inViewport(page, created)).toBe(true);
    await screenshot(page, 'player-flash-create-game-360');
    expect(await seriousAxeProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Phone Game' }).click();
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByLabel('Title').fill('Phone Game Two');
    await settings.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Settings saved.' });
    await saved.waitFor();
    await page.getByRole('heading', { level: 1, name: 'Phone Game Two' }).waitFor();
    expect(await inViewport(page, saved)).toBe(true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'player-flash-settings-360-dark');
    expect(await seriousAxeProblems(page)).toEqual([]);
    await context.close();
  });

  it('/me writes coins as 1,250, a purchase\'s price as $2.50 and times as 27 Nov 2026, 19:47 UTC', async () => {
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'Formats Player' });
    await fundPlayer(world.t, player, 1240);
    const bought = await world.t.http().post('/api/me/purchases').set('Cookie', player.cookie).send({ packId: 'pack-10', idempotencyKey: idempotencyKey('buy') });
    expect(bought.status).toBe(201);
    const paid = await world.t.http().post(`/api/sandbox/purchases/${bought.body.purchaseId}/pay`).set('Cookie', player.cookie).send({ cardNumber: '4242 4242 4242 4242' });
    expect(paid.status).toBe(200);

    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const page = await context.newPage();
    await page.goto('/me');
    const facts = page.locator('dl.facts');
    expect(await facts.locator('div').filter({ has: page.locator('dt', { hasText: 'Balance' }) }).locator('dd').textContent()).toBe('1,250');

    const purchases = page.getByRole('table', { name: 'Purchases' });
    const purchase = purchases.getByRole('row').filter({ hasText: 'paid' });
    await purchase.waitFor();
    expect(await purchase.textContent()).toContain('$2.50');
    expect(await purchase.locator('time').textContent()).toMatch(DATE_TIME);

    const history = page.getByRole('table', { name: 'Wallet history' });
    const credit = history.getByRole('row').filter({ hasText: 'test funds' });
    expect(await credit.textContent()).toContain('+1,240');
    const time = credit.locator('time');
    expect(await time.textContent()).toMatch(DATE_TIME);
    expect(new Date((await time.getAttribute('datetime'))!).toISOString()).toBe(await time.getAttribute('datetime'));
    expect(await history.getByRole('row').filter({ hasText: 'Coins bought' }).textContent()).toContain('1,250');

    for (const [viewport, scheme] of [[{ width: 1280, height: 800 }, 'light'], [PHONE, 'dark']] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousAxeProblems(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `player-me-${viewport.width}-${scheme}`);
    }
    await context.close();
  });
});
