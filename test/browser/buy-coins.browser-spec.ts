import AxeBuilder from '@axe-core/playwright';
import type { FrameLocator, Page } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

const PRICE = DEMO.game.coinsPerCredit;

/**
 * Buying coins in a real browser (CONTRACT §17.1, §19) with the sandbox provider: a player with 0
 * coins is offered "Buy coins" on the host page, pays on the checkout page (the declined card first:
 * nothing changes), comes back to the game with the new balance and inserts a coin from inside it.
 */
describe('buying coins in a real browser', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await world?.close();
  });

  async function ledgerOf(email: string): Promise<{ kind: string; delta: number }[]> {
    const { rows } = await world.t.db.query(
      `SELECT l.kind, l.delta FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id JOIN players p ON p.id = w.player_id
        JOIN accounts a ON a.id = p.account_id WHERE a.email = $1 ORDER BY l.seq`,
      [email],
    );
    return rows;
  }

  /** CONTRACT §17.1: no serious or critical axe violation at 1280×800 and 360×740, nothing scrolls sideways at 360 px. */
  async function expectAccessible(page: Page): Promise<void> {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
      await page.setViewportSize(viewport);
      const { violations } = await new AxeBuilder({ page: page as never }).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      if (viewport.width === 360) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await page.setViewportSize({ width: 1100, height: 900 });
  }

  async function openGame(page: Page): Promise<FrameLocator> {
    await page.goto('/play/coin-clicker');
    const game = page.frameLocator('[data-testid="game-frame"]');
    await game.locator('#hello').filter({ hasText: 'Hi ' }).waitFor();
    return game;
  }

  it('a player with 0 coins buys a pack with 4242…, sees the balance and inserts a coin; the declined card changes nothing', async () => {
    const buyer = await signUpVerifiedPlayer(world.t, { displayName: 'Buyer' });
    const context = await newContext(world);
    await signIn(context, buyer.email, buyer.password);
    const page = await context.newPage();
    const game = await openGame(page);
    expect(await page.getByTestId('balance').textContent()).toBe('0 coins');

    // Too few coins for a credit: the host page offers "Buy coins", one button per pack.
    const buy = page.getByRole('button', { name: 'Buy coins' });
    await buy.waitFor();
    await game.locator('#insert-coin').click();
    await page.getByTestId('message').filter({ hasText: 'Not enough coins' }).waitFor();
    await buy.click();
    const packs = await page.getByRole('button', { name: /^Buy \d+ coins$/ }).allTextContents();
    expect(packs).toEqual(['Buy 10 coins', 'Buy 40 coins', 'Buy 100 coins']);
    await screenshot(page, 'buy-01-packs');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Buy 10 coins' }).click();

    // The checkout page, coming back to the game.
    await page.waitForURL(/\/checkout\/[0-9a-f-]{36}\?return=%2Fplay%2Fcoin-clicker$/);
    await page.getByRole('heading', { name: '10 coins' }).waitFor();
    expect(await page.getByTestId('price').textContent()).toBe('$2.50');
    await expectAccessible(page);
    const card = page.getByRole('textbox', { name: 'Card number' });

    // Any other card is refused on the page: its message, what was typed kept, nothing changed.
    await card.fill('4111 1111 1111 1111');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
    expect(await card.inputValue()).toBe('4111 1111 1111 1111');

    // The declined card: "Payment declined", no coins.
    await card.fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Payment declined' }).waitFor();
    await screenshot(page, 'buy-02-declined');
    await expectAccessible(page);
    expect(await ledgerOf(buyer.email)).toEqual([]);
    const listed = await context.request.get('/api/me/purchases');
    expect((await listed.json()).purchases.map((p: { status: string }) => p.status)).toEqual(['failed']);

    // 4242…: "Payment received", then "Continue" back to the game with the new balance.
    await page.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await screenshot(page, 'buy-03-received');
    expect(await ledgerOf(buyer.email)).toEqual([{ kind: 'purchase', delta: 10 }]);
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL('**/play/coin-clicker');
    const back = page.frameLocator('[data-testid="game-frame"]');
    await back.locator('#hello').filter({ hasText: 'Hi Buyer' }).waitFor();
    await page.getByTestId('balance').filter({ hasText: '10 coins' }).waitFor();
    expect(await page.getByRole('button', { name: 'Buy coins' }).isHidden()).toBe(true);

    // A coin from inside the game.
    await back.locator('#insert-coin').click();
    await page.getByTestId('balance').filter({ hasText: `${10 - PRICE} coins` }).waitFor();
    expect(await ledgerOf(buyer.email)).toEqual([{ kind: 'purchase', delta: 10 }, { kind: 'debit', delta: -PRICE }]);
    await screenshot(page, 'buy-04-played');
    await context.close();
  });

  it('buys from /me: "Buy coins", a pack, 4242 pays, "Continue" back to /me with the balance and the purchase listed', async () => {
    const buyer = await signUpVerifiedPlayer(world.t, { displayName: 'Profile Buyer' });
    const context = await newContext(world);
    await signIn(context, buyer.email, buyer.password);
    const page = await context.newPage();
    await page.goto('/me');
    await page.getByRole('button', { name: 'Buy coins' }).click();
    await page.getByRole('button', { name: 'Buy 40 coins' }).click();
    await page.waitForURL(/\/checkout\/[0-9a-f-]{36}\?return=%2Fme$/);
    await page.getByRole('textbox', { name: 'Card number' }).fill('4242424242424242');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL('**/me');
    const purchases = page.getByRole('table', { name: 'Purchases' });
    await purchases.getByRole('row').filter({ hasText: 'paid' }).waitFor();
    expect(await purchases.getByRole('row').filter({ hasText: 'paid' }).textContent()).toContain('40');
    expect(await page.locator('dl.facts').textContent()).toContain('Balance40');
    await expectAccessible(page);
    await screenshot(page, 'buy-05-me');
    await context.close();
  });
});
