/**
 * CONTRACT §17.2 "Errors" on a page: a refused form shows the API's sentence in its role="alert",
 * naming the field in words, never a validator's wording or a regular expression.
 */
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, createGame } from '../support/factories';
import { BrowserWorld, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

describe('a refused form says what the field takes, in words', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('"Add achievement" with a bad key shows the sentence and keeps what was typed', async () => {
    const dev = await createDeveloper(world.t);
    const game = await createGame(world.t, dev);
    const context = await newContext(world);
    await signIn(context, dev.email, dev.password);
    const page = await context.newPage();
    await page.goto(`/developer/games/${game.gameId}`);

    const form = page.getByRole('form', { name: 'Add achievement' });
    await form.getByLabel('Key').fill('First Coin!');
    await form.getByLabel('Name').fill('First coin in');
    await form.getByLabel('Description').fill('Insert your first coin.');
    await form.getByRole('radiogroup', { name: 'Icon' }).getByRole('radio', { name: 'star' }).check();
    await form.getByRole('button', { name: 'Add achievement' }).click();

    const alert = form.getByRole('alert').filter({ hasText: 'Key:' });
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Key: use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit.');
    expect(await form.getByLabel('Name').inputValue()).toBe('First coin in');
    await screenshot(page, 'error-message-add-achievement');
  });
});
