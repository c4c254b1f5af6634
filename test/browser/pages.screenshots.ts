/**
 * Regenerates docs/screenshots/ (`npm run screenshots`): each page of the service at 1280 px and
 * 360 px wide, on the demo world plus a little play, in the light colour scheme. To look at the
 * pages in the dark scheme without touching the committed images:
 * `SCREENSHOTS_COLOR_SCHEME=dark SCREENSHOTS_DIR=/tmp/dark npm run screenshots`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApiKey, logIn, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, insertCoin, playAndScore, postInitials, startSession } from '../support/play';
import { BrowserWorld, signIn, startBrowserWorld } from '../support/browser';
import { behindTriggers } from '../support/database';
import { eventually } from '../support/eventually';

const OUT = process.env.SCREENSHOTS_DIR ?? join(__dirname, '..', '..', 'docs', 'screenshots');
const COLOR_SCHEME = process.env.SCREENSHOTS_COLOR_SCHEME === 'dark' ? 'dark' : 'light';
const WIDTHS = [1280, 360] as const;
/** Long pages are cut here: the top of a page is what a reader of the README needs. */
const MAX_HEIGHT = 2000;

describe('screenshots of every page (docs/screenshots)', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    mkdirSync(OUT, { recursive: true });
  });

  afterAll(async () => {
    await world?.close();
  });

  /** `act` brings the page into a state (a dialog open): then only the viewport is taken, as a person sees it. */
  async function shoot(context: BrowserContext, name: string, path: string, act?: (page: Page) => Promise<void>): Promise<void> {
    for (const width of WIDTHS) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      if (act) await act(page);
      const file = join(OUT, `${name}-${width}.png`);
      if (act) {
        await page.screenshot({ path: file });
      } else {
        const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight));
        await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height } });
      }
      await page.close();
    }
  }

  async function contextFor(account: { email: string; password: string } | null): Promise<BrowserContext> {
    const context = await world.browser.newContext({ baseURL: world.origin, colorScheme: COLOR_SCHEME });
    if (account) await signIn(context, account.email, account.password);
    return context;
  }

  it('writes the PNGs', async () => {
    // A little history: the demo player plays a few rounds and unlocks an achievement; some of the
    // earnings are moved to earlier days so the chart has a shape (the API always stamps "now").
    const t = world.t;
    const player = await logIn(t, DEMO.player.email, DEMO.player.password);
    const playerId = (await t.db.query<{ id: string }>('SELECT a.id FROM accounts a WHERE a.email = $1', [DEMO.player.email])).rows[0]!.id;
    await fundPlayer(t, { accountId: playerId }, 20);
    const insertions: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { sessionId } = await startSession(t, { cookie: player }, DEMO.game.slug);
      insertions.push(await insertCoin(t, { cookie: player }, sessionId));
      if (i === 0) await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player).send({ key: 'first-coin' });
    }
    for (const [i, insertionId] of insertions.entries()) {
      await behindTriggers(t.db, "UPDATE developer_earnings SET created_at = now() - make_interval(days => $2) WHERE insertion_id = $1", [insertionId, [0, 1, 3, 3, 6, 10, 10, 10][i]]);
    }
    // A board: a few players' scores with initials, and the demo player's best below them ("Your best").
    for (const [i, initials] of ['ACE', 'BOB', 'CAT', 'DAN', 'EVE'].entries()) {
      const rival = await signUpVerifiedPlayer(t, { displayName: `Rival ${initials}` });
      await fundPlayer(t, rival, 5);
      const played = await playAndScore(t, rival, DEMO.game.slug, 2400 - i * 350);
      await postInitials(t, rival, played.sessionId, played.scoreId as string, initials).expect(200);
    }
    const mine = await playAndScore(t, { cookie: player }, DEMO.game.slug, 720);
    await postInitials(t, { cookie: player }, mine.sessionId, mine.scoreId as string, 'DEM').expect(200);
    const developer = await logIn(t, DEMO.developer.email, DEMO.developer.password);
    await createApiKey(t, { cookie: developer }, 'live', 'production backend');
    await createApiKey(t, { cookie: developer }, 'test', 'staging');
    // A webhook endpoint with its test event delivered (or not: this machine may not reach the
    // address, and then the log shows the failed attempt and the next one, as a developer would see).
    const endpoint = await t.http().post('/api/portal/webhooks').set('Cookie', developer)
      .send({ url: 'https://backend.example.com/arcade/webhooks', events: ['insertion.created', 'insertion.voided'], description: 'production backend' }).expect(201);
    const webhookId: string = endpoint.body.webhookId;
    await t.http().post(`/api/portal/webhooks/${webhookId}/test`).set('Cookie', developer).expect(202);
    await eventually(
      async () => (await t.http().get(`/api/portal/webhooks/${webhookId}/deliveries`).set('Cookie', developer).expect(200)).body.deliveries[0]?.attempts ?? 0,
      (attempts) => attempts > 0,
      { withinMs: 20_000, everyMs: 250 },
    );
    const gameId = (await t.db.query<{ id: string }>('SELECT id FROM games WHERE slug = $1', [DEMO.game.slug])).rows[0]!.id;
    const newcomer = await signUpVerifiedPlayer(t, { displayName: 'Newcomer' });

    const visitor = await contextFor(null);
    await shoot(visitor, 'sign-in', '/auth/login');
    await shoot(visitor, 'catalogue', '/');
    await shoot(visitor, 'forgot-password', '/auth/forgot');

    const playerContext = await contextFor(DEMO.player);
    await shoot(playerContext, 'game', `/games/${DEMO.game.slug}`);
    await shoot(playerContext, 'me', '/me');
    await shoot(playerContext, 'settings', '/me/settings');
    // The play page mid-round (the README shows the phone): a coin inserted, a few taps scored.
    for (const width of WIDTHS) {
      const phone = await playerContext.newPage();
      await phone.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      await phone.goto(`/play/${DEMO.game.slug}`);
      const game = phone.frameLocator('[data-testid="game-frame"]');
      await game.locator('#hello').filter({ hasText: 'Hi ' }).waitFor();
      await game.getByRole('button', { name: 'Insert coin' }).click();
      await game.locator('#tap:enabled').waitFor();
      for (let i = 0; i < 7; i++) await game.getByRole('button', { name: 'Tap the coin' }).click();
      // The first-coin celebration is gone within 4 s (§17.2): the picture shows the round itself.
      await phone.getByRole('status').filter({ hasText: 'Unlocked' }).waitFor({ state: 'hidden', timeout: 6000 }).catch(() => undefined);
      await phone.screenshot({ path: join(OUT, `play-${width}.png`) });
      await phone.close();
    }
    await shoot(playerContext, 'not-found', '/developer/no-such-page');

    await shoot(await contextFor(newcomer), 'developer-become', '/developer');

    const developerContext = await contextFor(DEMO.developer);
    await shoot(developerContext, 'developer', '/developer');
    await shoot(developerContext, 'developer-game', `/developer/games/${gameId}`);
    await shoot(developerContext, 'developer-game-edit', `/developer/games/${gameId}`, async (page) => {
      await page.getByRole('table', { name: 'Achievements' }).getByRole('row').nth(1).getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('dialog').waitFor();
    });
    await shoot(developerContext, 'developer-keys', '/developer/keys', async (page) => {
      const form = page.getByRole('form', { name: 'Create key' });
      await form.getByLabel('Name').fill('analytics');
      await form.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('button', { name: 'Copy key' }).waitFor();
    });
    await shoot(developerContext, 'developer-earnings', '/developer/earnings');
    await shoot(developerContext, 'developer-payouts', '/developer/payouts');
    await shoot(developerContext, 'developer-webhooks', '/developer/webhooks');
    await shoot(developerContext, 'developer-webhook', `/developer/webhooks/${webhookId}`);

    const adminContext = await contextFor({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await shoot(adminContext, 'admin', '/admin');
  });
});
