/**
 * Issue 27 item 13, CONTRACT §17.2 "Games have a face", by role and accessible name: the developer
 * writes a description in "Settings" and uploads a thumbnail ("Thumbnail", "Upload thumbnail");
 * the catalogue shows thumbnails (the demo game's too) and filters with its searchbox "Search
 * games"; the game page and the host page show the description with its line breaks.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, logIn, publishGame, unique } from '../support/factories';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

const DESCRIPTION = 'Hop between nebulae.\nCollect stardust <b>not bold</b>.\n\nMind the black holes.';

/** Serious and critical axe findings, and sideways scrolling at 360 px, at both sizes in light and dark. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const v of (await new AxeBuilder({ page }).analyze()).violations) {
        if (v.impact === 'serious' || v.impact === 'critical') problems.push(`${viewport.width}px ${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) problems.push(`${viewport.width}px ${colorScheme}: scrolls sideways by ${overflow}px`);
    }
  }
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

describe('games have a face on the pages (issue 27 item 13)', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('uploads a thumbnail and a description on the developer page; the catalogue, its search, the game page and the host page show them', async () => {
    const devCookie = await logIn(world.t, DEMO.developer.email, DEMO.developer.password);
    const slug = unique('nebula');
    const game = await publishGame(world.t, { cookie: devCookie }, { slug, title: 'Nebula Hopper' });

    const context = await newContext(world);
    await signIn(context, DEMO.developer.email, DEMO.developer.password);
    const page = await context.newPage();
    await page.goto(`/developer/games/${game.gameId}`);

    // Description, in "Settings".
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByRole('textbox', { name: 'Description' }).fill(DESCRIPTION);
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    expect(await page.getByRole('form', { name: 'Settings' }).getByRole('textbox', { name: 'Description' }).inputValue()).toBe(DESCRIPTION);

    // No thumbnail yet; one too small is refused with the API's message; a good one shows at once.
    expect(await page.getByRole('img', { name: 'Thumbnail', exact: true }).count()).toBe(0);
    const file = page.getByLabel('Thumbnail', { exact: true });
    const small = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#335' } }).png().toBuffer();
    await file.setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: small });
    await page.getByRole('button', { name: 'Upload thumbnail' }).click();
    await page.getByRole('alert').filter({ hasText: /320/ }).waitFor();
    const picture = await sharp(Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="800" fill="#14213d"/>
       <circle cx="600" cy="400" r="260" fill="#fca311"/><circle cx="900" cy="200" r="40" fill="#e5e5e5"/></svg>`,
    )).png().toBuffer();
    await file.setInputFiles({ name: 'nebula.png', mimeType: 'image/png', buffer: picture });
    await page.getByRole('button', { name: 'Upload thumbnail' }).click();
    await page.getByRole('status').filter({ hasText: 'Thumbnail uploaded.' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: /320/ }).count()).toBe(0);
    const thumbnail = page.getByRole('img', { name: 'Thumbnail', exact: true });
    const src = await thumbnail.getAttribute('src');
    expect(src).toMatch(new RegExp(`^/media/games/${game.gameId}/thumbnail-[0-9a-f]+\\.webp$`));
    await page.waitForFunction(() => (document.querySelector('img[alt="Thumbnail"]') as HTMLImageElement | null)?.naturalWidth === 640);
    await screenshot(page, 'game-face-developer');
    expect(await accessibilityProblems(page)).toEqual([]);
    // After a reload the page shows the stored image.
    await page.reload();
    expect(await page.getByRole('img', { name: 'Thumbnail', exact: true }).getAttribute('src')).toBe(src);

    // The catalogue: both games with a face (the demo game's seeded one too); the search keeps one.
    await page.goto('/');
    const card = (title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card('Nebula Hopper').waitFor();
    expect(await card('Nebula Hopper').locator('img').getAttribute('src')).toBe(src);
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('#games img')).every((img) => img.complete && img.naturalWidth === 640));
    expect(await card(DEMO.game.title).locator('img').count()).toBe(1);
    await screenshot(page, 'game-face-catalogue');
    await page.getByRole('searchbox', { name: 'Search games' }).fill('NEBULA');
    await page.getByRole('searchbox', { name: 'Search games' }).press('Enter');
    await page.waitForURL((url) => url.searchParams.get('query') === 'NEBULA');
    await card('Nebula Hopper').waitFor();
    expect(await card(DEMO.game.title).count()).toBe(0);
    expect(await page.getByRole('searchbox', { name: 'Search games' }).inputValue()).toBe('NEBULA');
    await page.getByRole('searchbox', { name: 'Search games' }).fill('no such game');
    await page.getByRole('searchbox', { name: 'Search games' }).press('Enter');
    await page.getByText('No games match').waitFor();
    expect(await page.getByRole('heading', { name: 'Nebula Hopper' }).count()).toBe(0);

    // The game page: thumbnail and description, line breaks kept, never HTML.
    await page.goto(`/games/${slug}`);
    const description = page.getByTestId('game-description');
    expect(await description.innerText()).toBe(DESCRIPTION);
    expect(await description.locator('b').count()).toBe(0);
    expect(await page.locator(`img[src="${src}"]`).count()).toBe(1);
    await screenshot(page, 'game-face-game-page');

    // The host page: the description too.
    await page.goto(`/play/${slug}`);
    expect(await page.getByTestId('game-description').innerText()).toBe(DESCRIPTION);
    await context.close();

    // Without script the search still answers (a GET form, rendered by the server).
    const noScript = await world.browser.newContext({ baseURL: world.origin, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto('/');
    await plain.getByRole('searchbox', { name: 'Search games' }).fill('nebula');
    await plain.getByRole('button', { name: 'Search' }).click();
    await plain.waitForURL((url) => url.searchParams.get('query') === 'nebula');
    await plain.getByRole('heading', { name: 'Nebula Hopper' }).waitFor();
    expect(await plain.getByRole('heading', { name: DEMO.game.title }).count()).toBe(0);
    await noScript.close();
  });
});
