/**
 * Issue 27 items 5 and 14, by role and accessible name: "Your best" under the board of the game
 * page `/games/{slug}` for a player beyond the top ten, a sign-in link for a visitor (CONTRACT
 * §17.2 "Beyond the top ten"); and a suspended game's developer page offers no "Publish"
 * ("a suspended game shows no Publish", §17.2 "Next steps are said").
 */
import type { Locator } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminCookie, createGame, logIn, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, playAndScore, postInitials } from '../support/play';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

describe('game pages: "Your best" and a suspended game (issue 27 items 5, 14)', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  /** The definition (`<dd>`) of the term named `term` in a description list made of `<div><dt/><dd/></div>` groups. */
  function factOf(list: Locator, term: string): Locator {
    return list.locator('div').filter({ has: list.page().getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) }).getByRole('definition');
  }

  async function fundedPlayer(displayName: string): Promise<SignedUpUser> {
    const player = await signUpVerifiedPlayer(world.t, { displayName });
    await fundPlayer(world.t, player, 20);
    return player;
  }

  it('shows a player beyond the top ten "Your best" with its rank under the board, and a visitor a way to sign in', async () => {
    const slug = DEMO.game.slug;
    // Ten scores with initials fill the board: 1,900 down to 1,000.
    for (let i = 0; i < 10; i++) {
      const player = await fundedPlayer(`Board ${i}`);
      const result = await playAndScore(world.t, player, slug, 1900 - i * 100);
      await postInitials(world.t, player, result.sessionId, result.scoreId as string, 'TOP').expect(200);
    }
    const player = await fundedPlayer('Eleventh');
    const played = await playAndScore(world.t, player, slug, 700);
    await postInitials(world.t, player, played.sessionId, played.scoreId as string, 'ELV').expect(200);

    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const page = await context.newPage();
    await page.goto(`/games/${slug}`);
    const board = page.getByRole('table', { name: 'Top ten scores' });
    await board.getByRole('row').filter({ hasText: '1,000' }).waitFor();
    expect(await board.getByRole('row').filter({ hasText: 'ELV' }).count()).toBe(0);

    const best = page.getByRole('region', { name: 'Your best' });
    await factOf(best, 'Rank').filter({ hasText: /^11$/ }).waitFor();
    expect(await factOf(best, 'Score').textContent()).toBe('700');
    expect(await factOf(best, 'Initials').textContent()).toBe('ELV');
    const when = factOf(best, 'When').locator('time');
    expect(await when.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await when.textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    // This week's board holds the same scores here: the same place.
    await page.getByRole('button', { name: 'This week' }).click();
    await page.getByRole('button', { name: 'This week', pressed: true }).waitFor();
    await factOf(best, 'Rank').filter({ hasText: /^11$/ }).waitFor();
    await screenshot(page, 'game-page-your-best');
    await context.close();

    const visitor = await newContext(world);
    const signedOut = await visitor.newPage();
    await signedOut.goto(`/games/${slug}`);
    const link = signedOut.getByRole('region', { name: 'Your best' }).getByRole('link', { name: 'Sign in to see your best' });
    expect(await link.getAttribute('href')).toBe(`/auth/login?next=${encodeURIComponent(`/games/${slug}`)}`);
    await visitor.close();
  });

  it('shows a player whose best is below the top ten its rank, with no initials yet', async () => {
    const slug = DEMO.game.slug;
    const player = await fundedPlayer('Far Below');
    await playAndScore(world.t, player, slug, 3);
    const { rows } = await world.t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scores s JOIN games g ON g.id = s.game_id
        WHERE g.slug = $1 AND s.initials IS NOT NULL AND s.removed_at IS NULL AND s.score > 3`,
      [slug],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(10);

    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const page = await context.newPage();
    await page.goto(`/games/${slug}`);
    const best = page.getByRole('region', { name: 'Your best' });
    const rank = String(rows[0]!.n + 1);
    await factOf(best, 'Rank').filter({ hasText: new RegExp(`^${rank}$`) }).waitFor();
    expect(await best.getByRole('term').allTextContents()).toEqual(['Score', 'Rank', 'Initials', 'When']);
    expect(await best.getByRole('definition').allTextContents()).toEqual(['3', rank, '—', expect.stringMatching(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/)]);
    await best.getByRole('status').filter({ hasText: 'This score has no initials' }).waitFor();
    await context.close();
  });

  it('offers no "Publish" on a suspended game\'s page, and says why', async () => {
    const devCookie = await logIn(world.t, DEMO.developer.email, DEMO.developer.password);
    const game = await createGame(world.t, { cookie: devCookie }, { title: 'Suspended Sample' });
    const admin = await adminCookie(world.t);
    await world.t.http().post(`/api/admin/versions/${game.versionId}/approve`).set('Cookie', admin).expect(200);

    const context = await newContext(world);
    await signIn(context, DEMO.developer.email, DEMO.developer.password);
    const page = await context.newPage();
    const versions = page.getByRole('table', { name: 'Versions' });
    await page.goto(`/developer/games/${game.gameId}`);
    // Approved and not suspended: "Publish" is there.
    await versions.getByRole('row').filter({ hasText: '1.0.0' }).getByRole('button', { name: 'Publish' }).waitFor();

    await world.t.http().post(`/api/admin/games/${game.gameId}/suspend`).set('Cookie', admin).expect(200);
    await page.goto(`/developer/games/${game.gameId}`);
    await page.getByText('An administrator suspended this game').waitFor();
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    // The owner's preview of a suspended game would find no playable session (§16.1): not offered either.
    expect(await versions.getByRole('link', { name: 'Preview' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Unpublish' }).count()).toBe(0);
    // What still works is still there.
    await page.getByRole('form', { name: 'Settings' }).getByRole('button', { name: 'Save' }).waitFor();
    await page.getByRole('form', { name: 'Add version' }).waitFor();
    await screenshot(page, 'developer-game-suspended');
    await context.close();
  });
});
