/**
 * CONTRACT §17.2 "Destructive actions": retire, unpublish, revoke, suspend, freeze, ban, remove a
 * score and void ask first. Each button opens a `<dialog>` (role "dialog", named by what will
 * happen) in its row, or in the page for the void form, with a button whose name begins "Confirm"
 * and "Cancel": Cancel (or Escape) changes nothing and gives the focus back to the button that
 * opened it; Confirm does it. Suspend and freeze ask an optional "Reason" that lands in the audit
 * log (GET /api/admin/audit).
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createAchievement, createApiKey, createDeveloper, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, playAndScore } from '../support/play';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

describe('destructive actions ask first (CONTRACT §17.2)', () => {
  let world: BrowserWorld;
  let dev: Developer;
  let devContext: BrowserContext;
  let adminContext: BrowserContext;

  const one = async <T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T> => (await world.t.db.query(sql, params)).rows[0] as T;
  /** Whether the focus is inside an open dialog, and the text of the focused element. */
  const focus = (page: Page) =>
    page.evaluate(() => ({ inDialog: Boolean(document.activeElement?.closest('dialog[open]')), text: document.activeElement?.textContent?.trim() ?? '' }));

  /**
   * Opens `opener`, expects a dialog named `name` (inside `scope`) holding the focus, with `confirm`
   * and "Cancel"; returns it.
   */
  async function ask(page: Page, scope: Locator, opener: Locator, name: string, confirm: string): Promise<Locator> {
    await opener.click();
    const dialog = scope.getByRole('dialog', { name, exact: true });
    await dialog.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    expect(await dialog.getByRole('button', { name: confirm, exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(1);
    expect((await focus(page)).inDialog).toBe(true);
    return dialog;
  }

  /** Cancel (or Escape) closes the dialog; the focus is back on its opener. */
  async function dismiss(page: Page, dialog: Locator, opener: string, how: 'Cancel' | 'Escape' = 'Cancel'): Promise<void> {
    if (how === 'Cancel') await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    else await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await focus(page)).toEqual({ inDialog: false, text: opener });
  }

  const auditReason = async (targetId: string, action: string): Promise<string | null | undefined> => {
    const res = await adminContext.request.get(`/api/admin/audit?targetId=${targetId}`);
    expect(res.status()).toBe(200);
    return ((await res.json()).entries as { action: string; reason: string | null }[]).find((entry) => entry.action === action)?.reason;
  };

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    dev = await createDeveloper(world.t, { displayName: 'Careful Studio' });
    devContext = await newContext(world);
    await signIn(devContext, dev.email, dev.password);
    adminContext = await newContext(world);
    await signIn(adminContext, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('retire and unpublish on the developer\'s game page', async () => {
    const game = await publishGame(world.t, dev, { title: 'Careful Clicker' });
    await createAchievement(world.t, dev, game.gameId, { key: 'first-coin', name: 'First Coin' });
    const achievementStatus = async () => (await one<{ status: string }>('SELECT status FROM achievements WHERE game_id = $1 AND key = $2', [game.gameId, 'first-coin'])).status;
    const gameStatus = async () => (await one<{ status: string }>('SELECT status FROM games WHERE id = $1', [game.gameId])).status;

    const page = await devContext.newPage();
    await page.goto(`/developer/games/${game.gameId}`);
    const row = page.getByRole('table', { name: 'Achievements' }).getByRole('row').filter({ hasText: 'first-coin' });
    const retire = row.getByRole('button', { name: 'Retire', exact: true });

    let dialog = await ask(page, row, retire, 'Retire “First Coin”?', 'Confirm retire');
    // What will happen is the dialog's description, read out as it opens.
    expect(await dialog.evaluate((element) => document.getElementById(element.getAttribute('aria-describedby')!)?.textContent)).toContain(
      'Players who have it keep it; nobody can unlock it any more.',
    );
    await screenshot(page, 'confirm-retire');
    await dismiss(page, dialog, 'Retire');
    dialog = await ask(page, row, retire, 'Retire “First Coin”?', 'Confirm retire');
    await dismiss(page, dialog, 'Retire', 'Escape');
    expect(await achievementStatus()).toBe('active');
    dialog = await ask(page, row, retire, 'Retire “First Coin”?', 'Confirm retire');
    await dialog.getByRole('button', { name: 'Confirm retire' }).click();
    // The page reloads: the row's Status cell reads "retired" and its "Retire" is gone.
    await retire.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: 'retired', exact: true }).waitFor();
    expect(await achievementStatus()).toBe('retired');

    const status = page.getByRole('main');
    const unpublish = page.getByRole('button', { name: 'Unpublish', exact: true });
    dialog = await ask(page, status, unpublish, 'Unpublish “Careful Clicker”?', 'Confirm unpublish');
    await dismiss(page, dialog, 'Unpublish');
    expect(await gameStatus()).toBe('published');
    dialog = await ask(page, status, unpublish, 'Unpublish “Careful Clicker”?', 'Confirm unpublish');
    await dialog.getByRole('button', { name: 'Confirm unpublish' }).click();
    await page.getByText('Status:').filter({ hasText: 'unpublished' }).waitFor();
    expect(await gameStatus()).toBe('unpublished');
    await page.close();
  });

  it('revoke on /developer/keys', async () => {
    const key = await createApiKey(world.t, dev, 'live', 'nightly backend');
    const revokedAt = async () => (await one<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE id = $1', [key.id])).revoked_at;
    const page = await devContext.newPage();
    await page.goto('/developer/keys');
    const row = page.getByRole('table', { name: 'Your keys' }).getByRole('row').filter({ hasText: 'nightly backend' });
    const revoke = row.getByRole('button', { name: 'Revoke', exact: true });

    let dialog = await ask(page, row, revoke, 'Revoke the key “nightly backend”?', 'Confirm revoke');
    await dismiss(page, dialog, 'Revoke');
    expect(await revokedAt()).toBeNull();
    dialog = await ask(page, row, revoke, 'Revoke the key “nightly backend”?', 'Confirm revoke');
    await dialog.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByRole('table', { name: 'Your keys' }).getByRole('row').filter({ hasText: 'nightly backend' }).filter({ hasText: 'Revoked' }).waitFor();
    expect(await revokedAt()).not.toBeNull();
    await page.close();
  });

  it('suspend (with a reason), freeze (with a reason), ban, remove a score and void on /admin', async () => {
    const game = await publishGame(world.t, dev, { title: 'Suspect Game' });
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'Suspect Player' });
    await fundPlayer(world.t, player, 10);
    const played = await playAndScore(world.t, player, game.slug, 999999);
    const { insertion_id: insertionId } = await one<{ insertion_id: string }>('SELECT insertion_id FROM scores WHERE id = $1', [played.scoreId]);

    const page = await adminContext.newPage();
    await page.goto('/admin');
    const section = (name: string) => page.getByRole('region', { name });

    // Suspend, with a reason kept in the audit log.
    const gameStatus = async () => (await one<{ status: string }>('SELECT status FROM games WHERE id = $1', [game.gameId])).status;
    await section('Games').getByRole('searchbox', { name: 'Search games' }).fill('Suspect Game');
    await section('Games').getByRole('table', { name: 'Games found' }).waitFor();
    const gameRow = section('Games').getByRole('row').filter({ hasText: 'Suspect Game' }).filter({ has: page.getByRole('button', { name: 'Suspend', exact: true }) });
    const suspend = gameRow.getByRole('button', { name: 'Suspend', exact: true });
    let dialog = await ask(page, gameRow, suspend, 'Suspend “Suspect Game”?', 'Confirm suspension');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Typed, then cancelled');
    await dismiss(page, dialog, 'Suspend');
    expect(await gameStatus()).toBe('published');
    dialog = await ask(page, gameRow, suspend, 'Suspend “Suspect Game”?', 'Confirm suspension');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Copyright claim from Pixel Co.');
    await screenshot(page, 'confirm-suspend');
    await dialog.getByRole('button', { name: 'Confirm suspension' }).click();
    await section('Games').getByRole('row').filter({ hasText: 'Suspect Game' }).getByRole('button', { name: 'Unsuspend' }).waitFor();
    expect(await gameStatus()).toBe('suspended');
    expect(await auditReason(game.gameId, 'game.suspend')).toBe('Copyright claim from Pixel Co.');

    // Freeze, with a reason; Escape first.
    const frozenAt = async () => (await one<{ frozen_at: Date | null }>('SELECT frozen_at FROM wallets WHERE player_id = $1', [player.playerId])).frozen_at;
    await section('Users').getByRole('searchbox', { name: 'Find a user' }).fill(player.email);
    const userRow = section('Users').getByRole('row').filter({ hasText: player.email });
    const freeze = userRow.getByRole('button', { name: 'Freeze wallet', exact: true });
    dialog = await ask(page, userRow, freeze, 'Freeze the wallet of Suspect Player?', 'Confirm freeze');
    expect(await dialog.textContent()).toContain(player.email);
    await dismiss(page, dialog, 'Freeze wallet', 'Escape');
    expect(await frozenAt()).toBeNull();
    dialog = await ask(page, userRow, freeze, 'Freeze the wallet of Suspect Player?', 'Confirm freeze');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Card reported stolen');
    await dialog.getByRole('button', { name: 'Confirm freeze' }).click();
    await userRow.getByRole('button', { name: 'Unfreeze wallet' }).waitFor();
    expect(await frozenAt()).not.toBeNull();
    expect(await auditReason(player.accountId, 'wallet.freeze')).toBe('Card reported stolen');

    // Ban.
    const bannedAt = async () => (await one<{ banned_at: Date | null }>('SELECT banned_at FROM accounts WHERE id = $1', [player.accountId])).banned_at;
    const ban = userRow.getByRole('button', { name: 'Ban', exact: true });
    dialog = await ask(page, userRow, ban, 'Ban Suspect Player?', 'Confirm ban');
    await dismiss(page, dialog, 'Ban');
    expect(await bannedAt()).toBeNull();
    dialog = await ask(page, userRow, ban, 'Ban Suspect Player?', 'Confirm ban');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Chargebacks');
    await dialog.getByRole('button', { name: 'Confirm ban' }).click();
    await userRow.getByRole('button', { name: 'Unban' }).waitFor();
    expect(await bannedAt()).not.toBeNull();

    // Remove a score.
    const removedAt = async () => (await one<{ removed_at: Date | null }>('SELECT removed_at FROM scores WHERE id = $1', [played.scoreId])).removed_at;
    await section('Scores').getByRole('combobox', { name: 'Game' }).selectOption({ label: 'Suspect Game' });
    const scoreRow = section('Scores').getByRole('table', { name: 'Saved scores' }).getByRole('row').nth(1);
    const remove = scoreRow.getByRole('button', { name: 'Remove score', exact: true });
    await remove.waitFor();
    dialog = await ask(page, scoreRow, remove, 'Remove the score 999,999?', 'Confirm removal');
    await dismiss(page, dialog, 'Remove score');
    expect(await removedAt()).toBeNull();
    dialog = await ask(page, scoreRow, remove, 'Remove the score 999,999?', 'Confirm removal');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Memory editor');
    await dialog.getByRole('button', { name: 'Confirm removal' }).click();
    await section('Scores').getByRole('table', { name: 'Saved scores' }).getByRole('row').nth(1).filter({ hasText: 'removed' }).waitFor();
    expect(await removedAt()).not.toBeNull();

    // Void: the form keeps its fields; "Void" asks in a dialog of the page naming the insertion.
    const voids = async () => (await one<{ n: number }>('SELECT count(*)::int AS n FROM insertion_voids WHERE insertion_id = $1', [insertionId])).n;
    const voidForm = section('Scores').getByRole('form', { name: 'Void an insertion' });
    await voidForm.getByRole('textbox', { name: 'Insertion id' }).fill(insertionId);
    await voidForm.getByRole('textbox', { name: 'Reason' }).fill('Charged twice');
    const voidButton = voidForm.getByRole('button', { name: 'Void', exact: true });
    dialog = await ask(page, page.getByRole('main'), voidButton, 'Void this insertion?', 'Confirm void');
    expect(await dialog.textContent()).toContain(insertionId);
    await screenshot(page, 'confirm-void');
    await dismiss(page, dialog, 'Void');
    expect(await voids()).toBe(0);
    expect(await voidForm.getByRole('textbox', { name: 'Reason' }).inputValue()).toBe('Charged twice');
    dialog = await ask(page, page.getByRole('main'), voidButton, 'Void this insertion?', 'Confirm void');
    await dialog.getByRole('button', { name: 'Confirm void' }).click();
    await page.getByRole('status').filter({ hasText: 'voided' }).waitFor();
    expect(await voids()).toBe(1);
    await page.close();
  });
});
