import { DEMO } from '../../src/web/demo-seed.service';
import { BrowserWorld, newContext, signIn, startBrowserWorld } from '../support/browser';

describe('host page keeps its play session alive', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    // A 3-second idle timeout: without heartbeats the session would be expired after the wait below.
    world = await startBrowserWorld({ SESSION_IDLE_TIMEOUT_SECONDS: '3' });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('sends heartbeats at the pace of the configured idle timeout, so a coin still works later', async () => {
    const context = await newContext(world);
    await signIn(context, DEMO.player.email, DEMO.player.password);
    const page = await context.newPage();
    await page.goto('/play/coin-clicker');
    const game = page.frameLocator('[data-testid="game-frame"]');
    await game.locator('#hello').filter({ hasText: 'Hi ' }).waitFor();
    const session = await world.t.db.query('SELECT id, last_seen_at FROM play_sessions ORDER BY started_at DESC LIMIT 1');
    await page.waitForTimeout(7000);
    const later = await world.t.db.query('SELECT last_seen_at, ended_at FROM play_sessions WHERE id = $1', [session.rows[0].id]);
    expect(later.rows[0].ended_at).toBeNull();
    expect(later.rows[0].last_seen_at.getTime()).toBeGreaterThan(session.rows[0].last_seen_at.getTime());

    await game.locator('#insert-coin').click();
    await page.getByTestId('balance').filter({ hasText: `${100 - DEMO.game.coinsPerCredit} coins` }).waitFor();
    expect(await page.getByTestId('message').getAttribute('data-tone')).toBe('success');
    await context.close();
  });
});
