/**
 * The host page a new player meets (CONTRACT §17.2, issue 27 items 1, 2 and 4):
 * - the first celebration never takes the game's input: clicks and keys reach the game under it,
 *   it is a status (no dialog), and it is gone by itself within 4 seconds;
 * - at 360×740 the game's frame is as wide as the screen allows and never clipped: the page
 *   scrolls to its bottom, and the game's own buttons are played there;
 * - an unverified player sees "Verify your e-mail" with "Resend e-mail" on /me and the host page,
 *   the resend is announced in view, a mail goes out, and the mail limits answer a sentence.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer } from '../support/play';
import { smtpServer } from '../support/smtp';
import { BrowserWorld, eventually, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

const PRICE = DEMO.game.coinsPerCredit;
/** Mails per account per hour in this world: the sign-up mail and two resends, then the limit. */
const MAILS_PER_ACCOUNT = 3;

describe('the host page and /me for a new player (CONTRACT §17.2)', () => {
  let world: BrowserWorld;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;

  beforeAll(async () => {
    smtp = await smtpServer();
    world = await startBrowserWorld({
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}`,
      RATE_LIMIT_MAIL_PER_ACCOUNT: `${MAILS_PER_ACCOUNT}/3600`,
    });
  });

  afterAll(async () => {
    await world?.close();
    await new Promise((resolve) => smtp?.server.close(resolve));
  });

  const mailsTo = (email: string) => smtp.inbox.filter((mail) => mail.to.some((to) => to.includes(email)));
  /** The verification token of a mail (its text body, decoded by the sink). */
  const tokenOf = (text: string) => /verify-email\?token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(text)?.[1];

  /** A verified player with coins, signed in, on the host page once the game has said hello. */
  async function playerOnHostPage(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'First Timer' });
    await fundPlayer(world.t, player, 10 * PRICE);
    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    await page.goto(`/play/${DEMO.game.slug}`);
    const game = page.frameLocator('[data-testid="game-frame"]');
    await game.locator('#hello').filter({ hasText: 'Hi First Timer' }).waitFor();
    return { player, context, page, game };
  }

  /** The player's saved scores, once there are `count` of them (a round lasts 10 s). */
  async function scoresOf(playerId: string, count: number): Promise<number[]> {
    const read = async () => (await world.t.db.query<{ score: number }>('SELECT score::int AS score FROM scores WHERE player_id = $1', [playerId])).rows.map((r) => r.score);
    return eventually(read, (scores) => scores.length >= count, { withinMs: 20_000 });
  }

  /** Where the page showed and hid the celebration (performance.now() of each change). */
  async function watchCelebration(page: Page): Promise<() => Promise<{ shownAt?: number; hiddenAt?: number }>> {
    await page.evaluate(() => {
      const layer = document.querySelector<HTMLElement>('[data-testid="celebration"]')!;
      const seen: { shownAt?: number; hiddenAt?: number } = {};
      (window as unknown as { celebrationSeen: typeof seen }).celebrationSeen = seen;
      new MutationObserver(() => {
        if (!layer.hidden) seen.shownAt ??= performance.now();
        else if (seen.shownAt !== undefined) seen.hiddenAt ??= performance.now();
      }).observe(layer, { attributes: true, attributeFilter: ['hidden'] });
    });
    return () => page.evaluate(() => (window as unknown as { celebrationSeen: { shownAt?: number; hiddenAt?: number } }).celebrationSeen);
  }

  /** Serious or critical axe findings inside the celebration, as it is shown now. */
  async function celebrationProblems(page: Page): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page: page as never }).include('[data-testid="celebration"]').analyze();
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  }

  /** The centre of an element of the game, in the host page's coordinates. */
  /** Where the button is on the screen once the page holds still (a scroll or a late layout change moves it). */
  async function centreOf(game: FrameLocator, name: string): Promise<{ x: number; y: number }> {
    const button = game.getByRole('button', { name });
    let box = (await button.boundingBox())!;
    for (let i = 0; i < 20; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = (await button.boundingBox())!;
      if (again.x === box.x && again.y === box.y) break;
      box = again;
    }
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  /** Scrolls the page to its end and waits for two frames to be drawn there. */
  async function scrollToBottom(page: Page): Promise<void> {
    await page.evaluate(async () => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
  }

  /**
   * Where a person taps the game's button: its centre once it is enabled and still, checked to be
   * the button the page shows at that point (not a layer above it, not a place mid-scroll).
   */
  async function tapPoint(page: Page, game: FrameLocator, name: string): Promise<{ x: number; y: number }> {
    const button = game.getByRole('button', { name });
    await eventually(() => button.isEnabled(), (enabled) => enabled, { withinMs: 10_000 });
    const found = await eventually(
      async () => {
        const point = await centreOf(game, name);
        const frame = (await page.getByTestId('game-frame').boundingBox())!;
        const gameFrame = page.frames().find((f) => f.url().includes('/demo-games/'))!;
        const hit = await gameFrame.evaluate(([x, y]) => {
          const target = document.elementFromPoint(x, y)?.closest('button');
          return target ? (target.getAttribute('aria-label') ?? target.textContent?.trim() ?? null) : null;
        }, [point.x - frame.x, point.y - frame.y]);
        const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.getAttribute('data-testid') ?? null, [point.x, point.y]);
        return { point, hit, onTop };
      },
      ({ hit, onTop }) => hit === name && onTop === 'game-frame',
      { withinMs: 10_000 },
    );
    expect({ hit: found.hit, onTop: found.onTop }).toEqual({ hit: name, onTop: 'game-frame' });
    return found.point;
  }

  it('the first celebration never takes the game\'s input: clicks and keys reach the game, it is a status, gone within 4 s', async () => {
    const { player, context, page, game } = await playerOnHostPage({ width: 1280, height: 800 }, 'light');
    const seen = await watchCelebration(page);
    await game.getByRole('button', { name: 'Insert coin' }).click();

    const celebration = page.getByTestId('celebration');
    await celebration.filter({ hasText: 'First Coin' }).waitFor();
    expect(await celebration.getAttribute('role')).toBe('status');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await celebration.getByRole('button').count()).toBe(0);

    // Raw clicks at the coin's spot, as a person's: whatever lies on top there receives them.
    const coin = await centreOf(game, 'Tap the coin');
    expect(await celebration.isVisible()).toBe(true);
    await page.mouse.click(coin.x, coin.y);
    await page.mouse.click(coin.x, coin.y);
    // And a key: the game keeps the focus it gave its coin when the round started.
    await page.keyboard.press('Enter');
    await game.locator('#score').filter({ hasText: /^30$/ }).waitFor({ timeout: 3000 });
    await page.waitForTimeout(300); // the fade-in is over: colours are the final ones
    await screenshot(page, 'host-celebration-1280');
    expect(await celebrationProblems(page)).toEqual([]);

    await celebration.waitFor({ state: 'hidden', timeout: 10_000 });
    const { shownAt, hiddenAt } = await seen();
    expect(hiddenAt! - shownAt!).toBeLessThanOrEqual(4000);

    // The round runs to its end and is scored: the game never lost a click.
    expect(await scoresOf(player.playerId, 1)).toEqual([30]);
    await context.close();
  });

  it('at 360×740 the frame is as wide as the screen allows and never clipped: the page scrolls to the game\'s buttons', async () => {
    const { player, context, page, game } = await playerOnHostPage({ width: 360, height: 740 }, 'dark');
    // The page has what it reads on load (the balance, scores waiting for initials): nothing above
    // the frame moves any more, so where a button is on the screen stays where a person taps.
    await page.getByTestId('balance').filter({ hasText: `${10 * PRICE} coins` }).waitFor();
    await page.waitForLoadState('networkidle');
    const frame = page.getByTestId('game-frame');
    const box = (await frame.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(360 - 2 * 16);
    expect(box.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // The whole game fits in its frame: nothing of it lies below the frame's bottom.
    const gameFrame = page.frames().find((f) => f.url().includes('/demo-games/coin-clicker/'))!;
    const inside = await gameFrame.evaluate(() => ({ content: document.documentElement.scrollHeight, frame: window.innerHeight }));
    expect(inside.content).toBeLessThanOrEqual(inside.frame);
    for (const name of ['Insert coin', 'End round']) {
      const button = (await game.getByRole('button', { name }).boundingBox())!;
      expect({ name, insideTheFrame: button.y + button.height <= box.y + box.height }).toEqual({ name, insideTheFrame: true });
    }

    // Scrolling the page (not the game) brings the frame's bottom into view.
    // (A full-page screenshot resizes the view for a moment, and Chromium may route the next raw
    // tap on the game's frame by its old place: every screenshot here is followed by a scroll.)
    await screenshot(page, 'host-phone-360');
    await scrollToBottom(page);
    const scrolled = (await frame.boundingBox())!;
    expect(scrolled.y + scrolled.height).toBeLessThanOrEqual(740);

    // Played by raw taps where the buttons are on the screen: a paid coin, a tap, the round's end.
    const insert = await tapPoint(page, game, 'Insert coin');
    await page.mouse.click(insert.x, insert.y);
    await page
      .getByTestId('balance')
      .filter({ hasText: `${9 * PRICE} coins` })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nThe game said: ${await game.locator('#status').textContent()}`);
      });
    const celebration = page.getByTestId('celebration');
    await celebration.filter({ hasText: 'First Coin' }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'host-celebration-360');
    expect(await celebrationProblems(page)).toEqual([]);
    await scrollToBottom(page);
    const coin = await tapPoint(page, game, 'Tap the coin');
    await page.mouse.click(coin.x, coin.y);
    const end = await tapPoint(page, game, 'End round');
    await page.mouse.click(end.x, end.y);
    expect(await scoresOf(player.playerId, 1)).toEqual([10]);
    expect(await gameFrame.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  describe('an unverified player', () => {
    /** The status line of the notice is on screen (not scrolled away). */
    async function inView(page: Page, selector: string): Promise<boolean> {
      return page.locator(selector).evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      });
    }

    async function unverified(): Promise<{ email: string; context: BrowserContext }> {
      const user = await signUpPlayer(world.t, { displayName: 'Unverified Player' });
      await eventually(async () => mailsTo(user.email).length, (n) => n === 1);
      const context = await newContext(world);
      await signIn(context, user.email, user.password);
      return { email: user.email, context };
    }

    it('sees "Verify your e-mail" with "Resend e-mail" on the host page and /me; a resend is said in view and mails a link; the limit answers a sentence', async () => {
      const { email, context } = await unverified();
      expect(mailsTo(email)).toHaveLength(1);

      // The host page: the next step instead of a balance stuck on "…".
      const page = await context.newPage();
      await page.goto(`/play/${DEMO.game.slug}`);
      const notice = page.getByRole('region', { name: 'Verify your e-mail' });
      await notice.waitFor();
      await page.getByTestId('balance').filter({ hasText: '0 coins' }).waitFor();
      expect(await notice.textContent()).toContain(email);
      await notice.getByRole('button', { name: 'Resend e-mail' }).click();
      const sent = notice.getByRole('status').filter({ hasText: 'A new link is on its way' });
      await sent.waitFor();
      expect(await inView(page, '[data-resend-status]')).toBe(true);
      await eventually(async () => mailsTo(email).length, (n) => n === 2);
      expect(mailsTo(email)).toHaveLength(2);
      const token = tokenOf(mailsTo(email)[1]!.text);
      expect(token).toBeDefined();
      await screenshot(page, 'host-verify-email');

      // /me on a phone: the same notice; the third mail of the hour is the last.
      const me = await context.newPage();
      await me.setViewportSize({ width: 360, height: 740 });
      await me.goto('/me');
      const meNotice = me.getByRole('region', { name: 'Verify your e-mail' });
      await meNotice.getByRole('button', { name: 'Resend e-mail' }).click();
      await meNotice.getByRole('status').filter({ hasText: email }).waitFor();
      expect(await inView(me, '[data-resend-status]')).toBe(true);
      await eventually(async () => mailsTo(email).length, (n) => n === MAILS_PER_ACCOUNT);
      await screenshot(me, 'me-verify-email-360');

      await meNotice.getByRole('button', { name: 'Resend e-mail' }).click();
      const limited = meNotice.getByRole('alert');
      await limited.filter({ hasText: 'Too many e-mails' }).waitFor();
      expect(await limited.textContent()).toMatch(/^Too many e-mails were sent in a short time, so no new one went out\. Try again in \d+ minutes?; the links already sent still work\.$/);
      expect(await meNotice.getByRole('status').textContent()).toBe('');
      expect(await inView(me, '[data-resend-error]')).toBe(true);
      expect(mailsTo(email)).toHaveLength(MAILS_PER_ACCOUNT);

      // The link from the resent mail verifies the address: the host page then plays.
      expect((await context.request.get(`/auth/verify-email?token=${token}`, { maxRedirects: 0 })).status()).toBe(303);
      await page.reload();
      await page.frameLocator('[data-testid="game-frame"]').locator('#hello').filter({ hasText: 'Hi Unverified Player' }).waitFor();
      expect(await page.getByRole('region', { name: 'Verify your e-mail' }).count()).toBe(0);
      await context.close();
    });
  });
});
