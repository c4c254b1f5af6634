/**
 * `/admin` in a real browser (CONTRACT §17, §17.1, §18), controls found by role and accessible name
 * only: review versions, find a user, credit coins, ban and unban, remove a score and see the
 * board change, read the audit log. Accessibility of /admin (axe at 1280×800 and 360×740, light
 * and dark, a ban dialog open; nothing scrolls sideways at 360 px; every control reached with Tab
 * and a visible focus ring) is in accessibility.browser-spec.ts with the other pages.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, createGame, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { BrowserWorld, eventually, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';
import { fundPlayer, playAndScore, postInitials } from '../support/play';

describe('the admin console in a real browser', () => {
  let world: BrowserWorld;
  let admin: BrowserContext;
  let dev: Developer;

  const adminPage = async (): Promise<Page> => {
    const page = await admin.newPage();
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
    return page;
  };
  const section = (page: Page, name: string): Locator => page.getByRole('region', { name });
  const openSection = async (page: Page, name: string): Promise<Locator> => {
    await page.getByRole('main').getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name, exact: true }).click();
    return section(page, name);
  };

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    admin = await newContext(world);
    await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    dev = await createDeveloper(world.t, { displayName: 'Browser Studio' });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('sends a signed-out visitor to sign in, and shows a player the 404 page', async () => {
    const visitor = await newContext(world);
    const page = await visitor.newPage();
    await page.goto('/admin');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin');
    const player = await signUpVerifiedPlayer(world.t);
    await signIn(visitor, player.email, player.password);
    const response = await page.goto('/admin');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await visitor.close();
  });

  it('rejects a pending version with a reason and approves another', async () => {
    const rejected = await createGame(world.t, dev, { title: 'Broken Build' });
    const approved = await createGame(world.t, dev, { title: 'Good Build' });
    const page = await adminPage();
    const review = await openSection(page, 'Review');
    const queue = review.getByRole('table', { name: 'Pending versions' });

    const bad = queue.getByRole('row').filter({ hasText: 'Broken Build' });
    await bad.getByRole('textbox', { name: 'Reason' }).fill('Blank screen on start.');
    await bad.getByRole('button', { name: 'Reject' }).click();
    await bad.waitFor({ state: 'detached' });
    const good = queue.getByRole('row').filter({ hasText: 'Good Build' });
    await good.getByRole('button', { name: 'Approve' }).click();
    await good.waitFor({ state: 'detached' });

    const versions = await world.t.db.query('SELECT id, status, reject_reason FROM game_versions WHERE id = ANY($1) ORDER BY status', [[rejected.versionId, approved.versionId]]);
    expect(versions.rows).toEqual([
      { id: approved.versionId, status: 'approved', reject_reason: null },
      { id: rejected.versionId, status: 'rejected', reject_reason: 'Blank screen on start.' },
    ]);
    await page.close();
  });

  it('finds a user, credits coins, bans (their open pages lose the session) and unbans; the API\'s message shows in the form', async () => {
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'Coin Collector' });
    const playerContext = await newContext(world);
    await signIn(playerContext, player.email, player.password);
    const playerPage = await playerContext.newPage();
    await playerPage.goto('/me');
    expect(new URL(playerPage.url()).pathname).toBe('/me');

    const page = await adminPage();
    const users = await openSection(page, 'Users');
    await users.getByRole('searchbox', { name: 'Find a user' }).fill(player.email);
    const row = users.getByRole('row').filter({ hasText: player.email });
    await row.waitFor();

    await row.getByRole('button', { name: 'Credit coins' }).click();
    await row.getByRole('spinbutton', { name: 'Coins' }).fill('25');
    await row.getByRole('textbox', { name: 'Reason' }).fill('Goodwill for the outage');
    await row.getByRole('button', { name: 'Credit' }).click();
    await page.getByRole('status').filter({ hasText: 'Credited 25 coins to Coin Collector.' }).waitFor();
    expect(await users.getByRole('row').filter({ hasText: player.email }).getByRole('cell').nth(3).textContent()).toBe('25');
    const balance = await world.t.db.query('SELECT balance::int AS balance FROM wallets WHERE player_id = $1', [player.playerId]);
    expect(balance.rows[0].balance).toBe(25);

    await row.getByRole('button', { name: 'Ban' }).click();
    const reason = row.getByRole('textbox', { name: 'Reason' });
    // Reasons are required: an empty one is refused by the API and said in the form, nothing changes.
    await row.getByRole('button', { name: 'Confirm ban' }).click();
    await row.getByRole('alert').filter({ hasText: 'reason' }).waitFor();
    await reason.fill('Chargeback fraud');
    await row.getByRole('button', { name: 'Confirm ban' }).click();
    await row.getByRole('button', { name: 'Unban' }).waitFor();
    expect(await row.textContent()).toContain('banned since');
    await screenshot(page, 'admin-users-banned');

    await playerPage.reload();
    expect(new URL(playerPage.url()).pathname).toBe('/auth/login');

    await row.getByRole('button', { name: 'Unban' }).click();
    // Exact: "Ban" is also a part of "Unban".
    await row.getByRole('button', { name: 'Ban', exact: true }).waitFor();
    const account = await world.t.db.query('SELECT banned_at FROM accounts WHERE id = $1', [player.accountId]);
    expect(account.rows[0].banned_at).toBeNull();

    // Banning yourself is refused: the API's message appears in the form that sent it.
    await users.getByRole('searchbox', { name: 'Find a user' }).fill(ADMIN_EMAIL);
    const self = users.getByRole('row').filter({ hasText: ADMIN_EMAIL });
    await self.getByRole('button', { name: 'Ban' }).click();
    await self.getByRole('textbox', { name: 'Reason' }).fill('Testing myself');
    await self.getByRole('button', { name: 'Confirm ban' }).click();
    await self.getByRole('form', { name: /^Ban / }).getByRole('alert').filter({ hasText: 'You cannot ban yourself.' }).waitFor();
    expect(await self.getByRole('textbox', { name: 'Reason' }).inputValue()).toBe('Testing myself');
    await self.getByRole('button', { name: 'Cancel' }).click();
    await self.getByRole('button', { name: 'Ban', exact: true }).waitFor();
    await page.close();
    await playerContext.close();
  });

  it('removes a score, and the game\'s board changes', async () => {
    const game = await publishGame(world.t, dev, { title: 'Board Game' });
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, 5);
    const honest = await playAndScore(world.t, player, game.slug, 300);
    await postInitials(world.t, player, honest.sessionId, honest.scoreId as string, 'HON').expect(200);
    const forged = await playAndScore(world.t, player, game.slug, 999999);

    const visitor = await world.browser.newContext({ baseURL: world.origin });
    const board = await visitor.newPage();
    const boardScores = async () => {
      await board.goto(`/games/${game.slug}`);
      await board.getByTestId('leaderboard-row').first().waitFor();
      return board.getByTestId('leaderboard-row').allTextContents();
    };
    expect((await boardScores())[0]).toContain('999,999');

    const page = await adminPage();
    const scores = await openSection(page, 'Scores');
    await scores.getByRole('combobox', { name: 'Game' }).selectOption({ label: 'Board Game' });
    const row = scores.getByRole('row').filter({ hasText: '999,999' });
    await row.getByRole('button', { name: 'Remove score' }).click();
    await row.getByRole('textbox', { name: 'Reason' }).fill('Memory editor');
    await row.getByRole('button', { name: 'Confirm removal' }).click();
    await scores.getByRole('row').filter({ hasText: '999,999' }).filter({ hasText: 'removed' }).waitFor();
    const stored = await world.t.db.query('SELECT removed_at FROM scores WHERE id = $1', [forged.scoreId]);
    expect(stored.rows[0].removed_at).not.toBeNull();

    // The board is read again: the next best is on top (this instance dropped its cache at once).
    const after = await eventually(boardScores, (rows) => !rows.join(' ').includes('999,999'));
    expect(after[0]).toContain('HON');
    expect(after.join(' ')).not.toContain('999,999');
    await page.close();
    await visitor.close();
  });

  it('freezes and unfreezes a wallet, and voids an insertion by its id (the coins back, the score off the board)', async () => {
    const game = await publishGame(world.t, dev, { title: 'Void Game', coinsPerCredit: 3 });
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, 10);
    const played = await playAndScore(world.t, player, game.slug, 777);
    const { rows } = await world.t.db.query<{ insertion_id: string }>('SELECT insertion_id FROM scores WHERE id = $1', [played.scoreId]);
    const insertionId = rows[0]!.insertion_id;

    const page = await adminPage();
    const users = await openSection(page, 'Users');
    await users.getByRole('searchbox', { name: 'Find a user' }).fill(player.email);
    const row = users.getByRole('row').filter({ hasText: player.email });
    await row.getByRole('button', { name: 'Freeze wallet', exact: true }).click();
    await row.getByRole('dialog').getByRole('button', { name: 'Confirm freeze' }).click();
    await row.getByRole('button', { name: 'Unfreeze wallet' }).waitFor();
    expect((await world.t.db.query('SELECT frozen_at FROM wallets WHERE player_id = $1', [player.playerId])).rows[0].frozen_at).not.toBeNull();
    await row.getByRole('button', { name: 'Unfreeze wallet' }).click();
    await row.getByRole('button', { name: 'Freeze wallet', exact: true }).waitFor();
    expect((await world.t.db.query('SELECT frozen_at FROM wallets WHERE player_id = $1', [player.playerId])).rows[0].frozen_at).toBeNull();

    const scores = await openSection(page, 'Scores');
    const voidForm = scores.getByRole('form', { name: 'Void an insertion' });
    // An id that is no insertion: the API's 404 message, in the form; what was typed stays.
    await voidForm.getByRole('textbox', { name: 'Insertion id' }).fill('00000000-0000-4000-8000-000000000000');
    await voidForm.getByRole('textbox', { name: 'Reason' }).fill('Charged twice');
    await voidForm.getByRole('button', { name: 'Void', exact: true }).click();
    await voidForm.getByRole('dialog').getByRole('button', { name: 'Confirm void' }).click();
    await voidForm.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    expect(await voidForm.getByRole('textbox', { name: 'Reason' }).inputValue()).toBe('Charged twice');
    await voidForm.getByRole('textbox', { name: 'Insertion id' }).fill(insertionId);
    await voidForm.getByRole('button', { name: 'Void', exact: true }).click();
    await voidForm.getByRole('dialog').getByRole('button', { name: 'Confirm void' }).click();
    await page.getByRole('status').filter({ hasText: 'voided' }).waitFor();
    const balance = await eventually(
      async () => (await world.t.db.query('SELECT balance::int AS balance FROM wallets WHERE player_id = $1', [player.playerId])).rows[0].balance as number,
      (value) => value === 10,
    );
    expect(balance).toBe(10);
    expect((await world.t.db.query('SELECT removed_at FROM scores WHERE id = $1', [played.scoreId])).rows[0].removed_at).not.toBeNull();
    await page.close();
  });

  it('reads the audit log, newest first, and pages back with "Older"', async () => {
    const player = await signUpVerifiedPlayer(world.t);
    for (let i = 0; i < 51; i++) await fundPlayer(world.t, player, 1);
    const page = await adminPage();
    const log = (await openSection(page, 'Audit log')).getByRole('table', { name: 'Audit log' });
    const header = await log.getByRole('columnheader').allTextContents();
    expect(header).toEqual(['When', 'Actor', 'Action', 'Target', 'Reason']);
    const first = log.getByRole('row').nth(1);
    const cells = await first.getByRole('cell').allTextContents();
    // §17.2: "27 Nov 2026, 19:47 UTC"; the target's id shortened on screen, whole for a screen reader.
    expect(cells[0]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
    expect([cells[1], cells[2], cells[4]]).toEqual([ADMIN_EMAIL, 'wallet.credit', 'test funds']);
    await first.getByRole('cell', { name: `user ${player.accountId}`, exact: true }).waitFor();
    const actions = await log.getByRole('row').allTextContents();
    expect(actions).toHaveLength(51);

    await page.getByRole('link', { name: 'Older' }).click();
    const older = page.getByRole('table', { name: 'Audit log' });
    await older.getByRole('row').filter({ hasText: 'version.reject' }).first().waitFor();
    const olderText = (await older.textContent())!;
    for (const action of ['version.reject', 'version.approve', 'user.ban', 'user.unban', 'score.remove']) expect(olderText).toContain(action);
    expect(olderText).toContain('Chargeback fraud');
    await page.close();
  });
});
