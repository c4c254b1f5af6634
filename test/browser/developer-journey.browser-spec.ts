/**
 * Issue 17's walk, by role and accessible name only (CONTRACT §17.1): sign up → become a developer
 * → create a game → add a version → (admin approves through the API) → publish → define an
 * achievement → a player plays it and unlocks it → the developer sees the unlock count and the
 * earnings chart move → the player sees the coin, the achievement and the XP on /me.
 */
import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminCookie, signUpVerifiedPlayer, unique, uniqueEmail, verifyEmail } from '../support/factories';
import { fundPlayer } from '../support/play';
import { moneyText } from '../../src/http/pages/formats';
import { BrowserWorld, eventually, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

const PRICE = 2;

describe('a developer builds a game on the pages, a player plays it (issue 17)', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  /** The cells of a table row as text (textContent: hidden column names of narrow screens are CSS only). */
  async function cellsOf(page: Page, table: string, rowText: string): Promise<string[]> {
    const row = page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ hasText: rowText });
    return (await row.locator('td').allTextContents()).map((text) => text.trim());
  }

  it('walks from sign-up to a published game, a player\'s unlock, the counts, the chart and /me', async () => {
    const email = uniqueEmail('journey');
    const slug = unique('journey');
    const title = `Journey ${slug.split('-').pop()}`;

    // Sign up from the sign-in page the portal sends us to.
    const devContext = await newContext(world);
    const dev = await devContext.newPage();
    await dev.goto('/developer');
    await dev.waitForURL((url) => url.pathname === '/auth/login' && url.searchParams.get('next') === '/developer');
    const signUp = dev.getByRole('form', { name: 'Sign up' });
    await signUp.getByLabel('Display name').fill('Journey Dev');
    await signUp.getByLabel('E-mail address').fill(email);
    await signUp.getByLabel('Password').fill('journey-password-1');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await dev.waitForURL((url) => url.pathname === '/developer');

    // Becoming a developer needs a verified e-mail: the API's message shows in the form, the name typed stays.
    const become = dev.getByRole('form', { name: 'Become a developer' });
    await become.getByLabel('Display name').fill('Journey Studio');
    await become.getByRole('button', { name: 'Become a developer' }).click();
    await become.getByRole('alert').filter({ hasText: /verif/i }).waitFor();
    expect(await become.getByLabel('Display name').inputValue()).toBe('Journey Studio');
    const account = await world.t.db.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]);
    await verifyEmail(world.t, account.rows[0]!.id);
    await become.getByRole('button', { name: 'Become a developer' }).click();
    await dev.getByRole('table', { name: 'Your games' }).waitFor();
    expect((await world.t.db.query('SELECT display_name FROM developers WHERE account_id = $1', [account.rows[0]!.id])).rows[0].display_name).toBe('Journey Studio');

    // Create a game; a taken slug first shows the API's message.
    const create = dev.getByRole('form', { name: 'Create game' });
    await create.getByLabel('Slug').fill('coin-clicker');
    await create.getByLabel('Title').fill(title);
    await create.getByLabel('Coins per credit').fill(String(PRICE));
    await create.getByRole('button', { name: 'Create game' }).click();
    await create.getByRole('alert').filter({ hasText: /slug/i }).waitFor();
    expect(await create.getByLabel('Title').inputValue()).toBe(title);
    await create.getByLabel('Slug').fill(slug);
    await create.getByRole('button', { name: 'Create game' }).click();
    const gameLink = dev.getByRole('table', { name: 'Your games' }).getByRole('link', { name: title });
    await gameLink.waitFor();
    expect(await cellsOf(dev, 'Your games', slug)).toEqual([title, slug, 'unpublished', '—', '$0.00']);
    await gameLink.click();
    await dev.getByRole('heading', { level: 1, name: title }).waitFor();
    const gameUrl = dev.url();

    // Add a version: it waits for the admin's review (approved here through the API).
    const addVersion = dev.getByRole('form', { name: 'Add version' });
    await addVersion.getByLabel('Label').fill('1.0.0');
    await addVersion.getByLabel('Entry URL').fill('/demo-games/coin-clicker/');
    await addVersion.getByRole('button', { name: 'Add version' }).click();
    const versions = dev.getByRole('table', { name: 'Versions' });
    const versionRow = versions.getByRole('row').filter({ hasText: '1.0.0' });
    await versionRow.filter({ hasText: 'Waiting for review' }).waitFor();
    const preview = new URL((await versionRow.getByRole('link', { name: 'Preview' }).getAttribute('href'))!, world.origin);
    expect(preview.pathname).toBe(`/play/${slug}`);
    const versionId = preview.searchParams.get('version')!;
    expect(await versionRow.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    const approve = await world.t.http().post(`/api/admin/versions/${versionId}/approve`).set('Cookie', await adminCookie(world.t));
    expect(approve.status).toBe(200);
    await dev.reload();
    await versionRow.filter({ hasText: 'Approved' }).waitFor();
    await versionRow.getByRole('button', { name: 'Publish' }).click();
    await dev.getByRole('button', { name: 'Unpublish' }).waitFor();
    expect(await dev.getByText('Status:').textContent()).toContain('published');

    // Define an achievement with the icon picker; a bad key first shows the API's message.
    const addAchievement = dev.getByRole('form', { name: 'Add achievement' });
    const icons = addAchievement.getByRole('radiogroup', { name: 'Icon' });
    expect(await icons.getByRole('radio').count()).toBe(18);
    await addAchievement.getByLabel('Key').fill('First Coin');
    await addAchievement.getByLabel('Name').fill('First coin in');
    await addAchievement.getByLabel('Description').fill('Insert your first coin.');
    await icons.getByRole('radio', { name: 'star' }).check();
    await addAchievement.getByRole('button', { name: 'Add achievement' }).click();
    await addAchievement.getByRole('alert').filter({ hasText: 'key' }).waitFor();
    expect(await addAchievement.getByLabel('Name').inputValue()).toBe('First coin in');
    expect(await icons.getByRole('radio', { name: 'star' }).isChecked()).toBe(true);
    await addAchievement.getByLabel('Key').fill('first-coin');
    await addAchievement.getByRole('button', { name: 'Add achievement' }).click();
    const achievements = dev.getByRole('table', { name: 'Achievements' });
    const achievementRow = achievements.getByRole('row').filter({ hasText: 'first-coin' });
    await achievementRow.waitFor();
    expect(await cellsOf(dev, 'Achievements', 'first-coin')).toEqual(['star', 'first-coin', 'First coin in', 'Insert your first coin.', 'no', 'active', '0', 'EditRetire']);

    // Edit opens a form in the row; Save changes the name.
    await achievementRow.getByRole('button', { name: 'Edit' }).click();
    const editName = achievementRow.getByLabel('Name');
    expect(await editName.inputValue()).toBe('First coin in');
    expect(await achievementRow.getByRole('radiogroup', { name: 'Icon' }).getByRole('radio', { name: 'star' }).isChecked()).toBe(true);
    await editName.fill('First Coin');
    await achievementRow.getByRole('button', { name: 'Save' }).click();
    await achievements.getByRole('row').filter({ hasText: 'first-coin' }).filter({ hasText: 'First Coin' }).waitFor();
    await screenshot(dev, 'journey-developer-game');

    // A player plays the game and unlocks the achievement.
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'Journey Player' });
    await fundPlayer(world.t, player, 10);
    const playerContext = await newContext(world);
    await signIn(playerContext, player.email, player.password);
    const play = await playerContext.newPage();
    await play.goto(`/play/${slug}`);
    const game = play.frameLocator('[data-testid="game-frame"]');
    await game.locator('#hello').filter({ hasText: 'Hi Journey Player' }).waitFor();
    await game.getByRole('button', { name: 'Insert coin' }).click();
    await play.getByTestId('celebration').filter({ hasText: 'First Coin' }).waitFor();
    await eventually(
      async () => (await world.t.db.query('SELECT count(*)::int AS n FROM achievement_unlocks u JOIN achievements a ON a.id = u.achievement_id WHERE a.key = $1 AND u.player_id = $2', ['first-coin', player.playerId])).rows[0].n,
      (n) => n === 1,
    );

    // The developer sees the unlock count and the earnings move.
    await dev.goto(gameUrl);
    expect((await cellsOf(dev, 'Achievements', 'first-coin'))[6]).toBe('1');
    await dev.getByRole('navigation', { name: 'Developer portal' }).getByRole('link', { name: 'Earnings' }).click();
    await dev.waitForURL((url) => url.pathname === '/developer/earnings');
    const chart = dev.getByRole('img', { name: /^Daily earnings/ });
    await chart.waitFor();
    const daily = dev.getByRole('table', { name: 'Daily earnings' });
    const dailyRows = daily.getByRole('row');
    expect(await dailyRows.count()).toBe(31);
    const today = await dailyRows.last().locator('td').allTextContents();
    expect(today).toEqual([expect.stringMatching(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/), '1', String(PRICE), '$0.35']);
    expect(await dev.getByRole('table', { name: 'Earnings', exact: true }).getByRole('row').filter({ hasText: slug }).locator('td').allTextContents()).toEqual([title, slug, '1', String(PRICE), '$0.50', '$0.35']);
    await dev.getByRole('combobox', { name: 'Game' }).selectOption({ label: title });
    await dev.waitForURL((url) => url.searchParams.has('gameId'));
    await dev.getByRole('img', { name: new RegExp(`^Daily earnings, last 30 days, ${title}`) }).waitFor();
    expect(await dev.getByRole('table', { name: 'Daily earnings' }).getByRole('row').last().locator('td').nth(3).textContent()).toBe('$0.35');
    const api = await devContext.request.get(`/api/portal/earnings/daily?gameId=${new URL(dev.url()).searchParams.get('gameId')}`);
    const days = (await api.json()).days as { earnedUsd: string }[];
    expect(await daily.locator('tbody tr td:nth-child(4)').allTextContents()).toEqual(days.map((d) => moneyText(d.earnedUsd)));
    await screenshot(dev, 'journey-earnings');

    // Retire: the achievement keeps its count.
    await dev.goto(gameUrl);
    await achievementRow.getByRole('button', { name: 'Retire' }).click();
    await achievements.getByRole('row').filter({ hasText: 'first-coin' }).filter({ hasText: 'retired' }).waitFor();
    expect((await cellsOf(dev, 'Achievements', 'first-coin'))[6]).toBe('1');

    // The player sees the coin, the achievement and the XP on /me.
    await play.goto('/me');
    const facts = async (term: string) => play.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('+ dd').textContent();
    expect(await facts('Balance')).toBe(String(10 - PRICE));
    expect(await facts('XP')).toBe('25');
    expect(await facts('XP to next level')).toBe('75');
    expect(await facts('Level')).toBe('1');
    const history = await play.getByRole('table', { name: 'Wallet history' }).getByRole('row').nth(1).locator('td').allTextContents();
    expect(history.slice(1)).toEqual([`Coin inserted · ${slug}`, `-${PRICE}`, String(10 - PRICE)]);
    const unlocked = play.getByRole('list', { name: 'Achievements' }).getByRole('listitem');
    expect(await unlocked.count()).toBe(1);
    expect(await unlocked.first().textContent()).toContain('First Coin');
    expect(await unlocked.first().textContent()).toContain(title);
    await screenshot(play, 'journey-me');

    await devContext.close();
    await playerContext.close();
  });

  it('keeps another developer out of the game page: the 404 page, nothing of the game', async () => {
    const owner = await signUpVerifiedPlayer(world.t);
    const ownerContext = await newContext(world);
    await signIn(ownerContext, owner.email, owner.password);
    await ownerContext.request.post('/api/portal/developer', { data: { displayName: 'Owner' } });
    const created = await ownerContext.request.post('/api/portal/games', { data: { slug: unique('private'), title: 'Private Title', coinsPerCredit: 1 } });
    const gameId = (await created.json()).gameId;
    const stranger = await signUpVerifiedPlayer(world.t);
    const strangerContext = await newContext(world);
    await signIn(strangerContext, stranger.email, stranger.password);
    await strangerContext.request.post('/api/portal/developer', { data: { displayName: 'Stranger' } });
    const page = await strangerContext.newPage();
    const response = await page.goto(`/developer/games/${gameId}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Developer' }).waitFor();
    expect(await page.content()).not.toContain('Private Title');
    await ownerContext.close();
    await strangerContext.close();
  });
});
