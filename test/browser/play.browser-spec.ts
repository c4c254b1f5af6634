import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApiKey, logIn, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey } from '../support/play';
import { BrowserWorld, eventually, newContext, screenshot, signIn, startBrowserWorld } from '../support/browser';

const PRICE = DEMO.game.coinsPerCredit;

describe('playing in a real browser: host page, SDK bridge, demo game', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
  });

  afterAll(async () => {
    await world?.close();
  });

  async function playerId(email: string): Promise<string> {
    const row = await world.t.db.query('SELECT p.id FROM players p JOIN accounts a ON a.id = p.account_id WHERE a.email = $1', [email]);
    return row.rows[0].id;
  }

  async function insertionsOf(player: string): Promise<{ coins: number }[]> {
    return (await world.t.db.query('SELECT coins FROM insertions WHERE player_id = $1', [player])).rows;
  }

  /** Opens the host page and waits until the game has said hello through the SDK. */
  async function openGame(context: BrowserContext): Promise<{ page: Page; game: FrameLocator }> {
    const page = await context.newPage();
    await page.goto('/play/coin-clicker');
    const game = page.frameLocator('[data-testid="game-frame"]');
    await game.locator('#hello').filter({ hasText: 'Hi ' }).waitFor();
    return { page, game };
  }

  /** The game iframe as a Frame, to run code inside the game's own (sandboxed) window. */
  function gameFrame(page: Page) {
    const frame = page.frames().find((f) => f.url().includes('/demo-games/coin-clicker/'));
    if (!frame) throw new Error('game frame not found');
    return frame;
  }

  it('sends a signed-out visitor to the login page, and back to the game once signed in', async () => {
    const context = await newContext(world);
    const page = await context.newPage();
    await page.goto('/play/coin-clicker');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/play/coin-clicker');
    await page.locator('#signin-email').fill(DEMO.player.email);
    await page.locator('#signin-password').fill(DEMO.player.password);
    await page.locator('#signin button[type="submit"]').click();
    await page.waitForURL('**/play/coin-clicker');
    await page.frameLocator('[data-testid="game-frame"]').locator('#hello').filter({ hasText: 'Hi Demo Player' }).waitFor();
    await context.close();
  });

  it('lists the published game in the catalogue and reaches it by keyboard alone', async () => {
    const context = await newContext(world);
    await signIn(context, DEMO.player.email, DEMO.player.password);
    const page = await context.newPage();
    await page.goto('/');
    await page.locator('#games .card').filter({ hasText: 'Coin Clicker' }).waitFor();
    expect(await page.locator('#games .card').first().textContent()).toContain(`${PRICE} coins per credit`);
    await screenshot(page, '00-catalogue');
    // Tab through the page until the game's Play link has focus, then press Enter.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.getAttribute('href') === '/play/coin-clicker')) break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL('**/play/coin-clicker');
    await page.frameLocator('[data-testid="game-frame"]').locator('#hello').filter({ hasText: 'Hi Demo Player' }).waitFor();
    await context.close();
  });

  it('plays a round: coin from the game, celebration, score, initials, leaderboard', async () => {
    const context = await newContext(world);
    await signIn(context, DEMO.player.email, DEMO.player.password);
    const player = await playerId(DEMO.player.email);
    const { page, game } = await openGame(context);
    const balance = page.getByTestId('balance');
    expect(await balance.textContent()).toBe('100 coins');
    await screenshot(page, '01-host-page');

    // The game's own button: the SDK asks the host, the host calls insert-coin with the cookie.
    await game.locator('#insert-coin').click();
    await page.getByTestId('balance').filter({ hasText: `${100 - PRICE} coins` }).waitFor();
    expect(await insertionsOf(player)).toEqual([{ coins: PRICE }]);
    expect(await game.locator('#receipt').textContent()).toMatch(/^Receipt: [0-9a-f-]{36}$/);

    // The game unlocks "first-coin" after its first coin: the host plays the celebration.
    const celebration = page.getByTestId('celebration');
    // The layer shows first and its words follow 50 ms later (a live region announces what is added to it).
    await celebration.filter({ hasText: 'First Coin' }).waitFor({ state: 'visible' });
    expect(await celebration.textContent()).toContain('First Coin');
    await screenshot(page, '02-celebration');
    const unlocks = await world.t.db.query(
      'SELECT a.key FROM achievement_unlocks u JOIN achievements a ON a.id = u.achievement_id WHERE u.player_id = $1',
      [player],
    );
    expect(unlocks.rows).toEqual([{ key: 'first-coin' }]);
    await page.keyboard.press('Escape');
    await celebration.waitFor({ state: 'hidden' });

    // Three taps, end the round: 30 points, a qualifying score on an empty board.
    for (let i = 0; i < 3; i++) await game.locator('#tap').click();
    await game.locator('#end-round').click();
    const initials = page.getByTestId('initials-input');
    await initials.waitFor({ state: 'visible' });
    await screenshot(page, '03-initials-prompt');
    await initials.fill('ace');
    await page.getByTestId('initials-submit').click();
    await page.getByTestId('message').filter({ hasText: 'Saved as ACE' }).waitFor();
    const scores = await world.t.db.query('SELECT score::int AS score, initials FROM scores WHERE player_id = $1', [player]);
    expect(scores.rows).toEqual([{ score: 30, initials: 'ACE' }]);

    // The game page shows the board (all time and this week) and the achievements, secret one masked.
    await page.goto('/games/coin-clicker');
    const row = page.getByTestId('leaderboard-row').first();
    await row.waitFor();
    expect((await row.textContent())?.replace(/\s+/g, ' ')).toMatch(/^1ACE30/);
    await page.getByRole('button', { name: 'This week' }).click();
    await page.getByRole('button', { name: 'This week', pressed: true }).waitFor();
    await page.getByTestId('leaderboard-row').filter({ hasText: 'ACE' }).waitFor();
    const achievements = page.getByTestId('achievements');
    await achievements.getByText('First Coin', { exact: true }).waitFor();
    expect(await achievements.textContent()).toContain('???');
    expect(await achievements.textContent()).not.toContain('Zen Master');
    await screenshot(page, '04-game-page');
    await context.close();
  });

  it('shows "not enough coins" and debits nothing when the wallet cannot pay', async () => {
    const poor = await signUpVerifiedPlayer(world.t, { displayName: 'Poor Player' });
    const context = await newContext(world);
    await signIn(context, poor.email, poor.password);
    const { page, game } = await openGame(context);
    expect(await page.getByTestId('balance').textContent()).toBe('0 coins');
    await game.locator('#insert-coin').click();
    const message = page.getByTestId('message');
    await message.filter({ hasText: 'Not enough coins' }).waitFor();
    await game.locator('#status').filter({ hasText: 'Not enough coins' }).waitFor();
    await screenshot(page, '05-not-enough-coins');
    expect(await page.getByTestId('balance').textContent()).toBe('0 coins');
    expect(await insertionsOf(poor.playerId)).toEqual([]);
    const ledger = await world.t.db.query('SELECT count(*)::int AS n FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1', [poor.playerId]);
    expect(ledger.rows[0].n).toBe(0);
    await context.close();
  });

  it('asks for initials on a trusted high score that still has none', async () => {
    const player = await signUpVerifiedPlayer(world.t, { displayName: 'Trusted Player' });
    await fundPlayer(world.t, player, 10);
    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const first = await openGame(context);
    await first.game.locator('#insert-coin').click();
    const receipt = await first.game.locator('#receipt').filter({ hasText: 'Receipt:' }).textContent();
    const insertionId = receipt!.replace('Receipt: ', '');

    // The game's backend reports a verified score for that insertion with a live key.
    const developer = await logIn(world.t, DEMO.developer.email, DEMO.developer.password);
    const key = await createApiKey(world.t, { cookie: developer }, 'live');
    const trusted = await world.t
      .http()
      .post(`/api/v1/insertions/${insertionId}/score`)
      .set('Authorization', `Bearer ${key.key}`)
      .send({ score: 5000, idempotencyKey: idempotencyKey('trusted') });
    expect(trusted.status).toBe(200);
    expect(trusted.body).toMatchObject({ saved: true, qualifies: true, needsInitials: true });

    const { page } = await openGame(context);
    const initials = page.getByTestId('initials-input');
    await initials.waitFor({ state: 'visible' });
    await initials.fill('BOB');
    await initials.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'Saved as BOB' }).waitFor();
    const row = await world.t.db.query('SELECT initials FROM scores WHERE id = $1', [trusted.body.scoreId]);
    expect(row.rows).toEqual([{ initials: 'BOB' }]);
    await context.close();
  });

  it('says when the play session has expired and offers a new one', async () => {
    const context = await newContext(world);
    await signIn(context, DEMO.player.email, DEMO.player.password);
    const { page, game } = await openGame(context);
    const player = await playerId(DEMO.player.email);
    const before = (await insertionsOf(player)).length;
    const current = await world.t.db.query('SELECT id FROM play_sessions WHERE player_id = $1 ORDER BY started_at DESC LIMIT 1', [player]);
    // The session ends elsewhere (another tab, say): the next coin is refused with 410.
    const ended = await context.request.post(`/api/play/sessions/${current.rows[0].id}/end`);
    expect(ended.status()).toBe(200);
    await game.locator('#insert-coin').click();
    await page.getByTestId('message').filter({ hasText: 'expired' }).waitFor();
    await game.locator('#status').filter({ hasText: 'expired' }).waitFor();
    expect((await insertionsOf(player)).length).toBe(before);
    await page.getByRole('button', { name: 'Start a new session' }).click();
    await page.frameLocator('[data-testid="game-frame"]').locator('#hello').filter({ hasText: 'Hi Demo Player' }).waitFor();
    const sessions = await world.t.db.query('SELECT id FROM play_sessions WHERE player_id = $1 ORDER BY started_at DESC LIMIT 1', [player]);
    expect(sessions.rows[0].id).not.toBe(current.rows[0].id);
    await context.close();
  });

  it('ends the play session when the player leaves the page', async () => {
    const context = await newContext(world);
    await signIn(context, DEMO.player.email, DEMO.player.password);
    const { page } = await openGame(context);
    const player = await playerId(DEMO.player.email);
    const latest = () => world.t.db.query('SELECT ended_at FROM play_sessions WHERE player_id = $1 ORDER BY started_at DESC LIMIT 1', [player]);
    expect((await latest()).rows[0].ended_at).toBeNull();
    await page.goto('/');
    const after = await eventually(latest, (r) => r.rows[0].ended_at !== null);
    expect(after.rows[0].ended_at).not.toBeNull();
    await context.close();
  });

  describe('bridge security', () => {
    it('ignores bridge messages from any window but the game iframe', async () => {
      const context = await newContext(world);
      await signIn(context, DEMO.player.email, DEMO.player.password);
      const player = await playerId(DEMO.player.email);
      const before = (await insertionsOf(player)).length;
      const { page, game } = await openGame(context);
      const balance = await page.getByTestId('balance').textContent();

      // The host page's own window, and a same-origin popup it opened, both forge an insertCoin.
      await page.evaluate(() => window.postMessage({ __svc: 1, id: 'forged-top', type: 'insertCoin', payload: {} }, '*'));
      const [popup] = await Promise.all([context.waitForEvent('page'), page.evaluate(() => void window.open('/', 'popup'))]);
      await popup.waitForLoadState();
      await popup.evaluate(() => window.opener.postMessage({ __svc: 1, id: 'forged-popup', type: 'insertCoin', payload: {} }, '*'));
      await popup.close();

      // A real insertion afterwards goes through: exactly one debit in all.
      await game.locator('#insert-coin').click();
      await game.locator('#receipt').filter({ hasText: 'Receipt:' }).waitFor();
      expect((await insertionsOf(player)).length).toBe(before + 1);
      expect(await page.getByTestId('balance').textContent()).toBe(`${Number(balance!.split(' ')[0]) - PRICE} coins`);
      await context.close();
    });

    it('refuses malformed messages and never forwards them', async () => {
      const context = await newContext(world);
      await signIn(context, DEMO.player.email, DEMO.player.password);
      const player = await playerId(DEMO.player.email);
      const before = (await insertionsOf(player)).length;
      const unlocksBefore = (await world.t.db.query('SELECT count(*)::int AS n FROM achievement_unlocks WHERE player_id = $1', [player])).rows[0].n;
      const { page } = await openGame(context);
      const replies = await gameFrame(page).evaluate(async () => {
        const seen: Record<string, unknown> = {};
        window.addEventListener('message', (e) => {
          if (e.source === window.parent && e.data && typeof e.data.id === 'string') seen[e.data.id] = e.data;
        });
        const post = (m: unknown) => window.parent.postMessage(m, '*');
        post({ __svc: 2, id: 'wrong-svc', type: 'insertCoin', payload: {} });
        post({ __svc: 1, id: 'extra-field', type: 'insertCoin', payload: { coins: 99 } });
        post({ __svc: 1, id: 'no-payload', type: 'insertCoin' });
        post({ __svc: 1, id: 'bad-key', type: 'unlockAchievement', payload: { key: 'Not A Key' } });
        post({ __svc: 1, id: 'bad-score', type: 'submitScore', payload: { score: -1 } });
        post({ __svc: 1, id: 'bad-type', type: 'drainWallet', payload: {} });
        post('just a string');
        // A valid init after them: once it is answered, the earlier ones have been handled.
        post({ __svc: 1, id: 'probe', type: 'init', payload: {} });
        for (let i = 0; i < 100 && !seen.probe; i++) await new Promise((r) => setTimeout(r, 50));
        return seen;
      });
      expect(replies['wrong-svc']).toBeUndefined();
      for (const id of ['extra-field', 'no-payload', 'bad-key', 'bad-score', 'bad-type']) {
        expect(replies[id]).toEqual({ __svc: 1, id, ok: false, reason: 'INVALID_REQUEST' });
      }
      expect(replies.probe).toMatchObject({ ok: true, data: { testMode: false, coinsPerCredit: PRICE } });
      expect((await insertionsOf(player)).length).toBe(before);
      expect((await world.t.db.query('SELECT count(*)::int AS n FROM achievement_unlocks WHERE player_id = $1', [player])).rows[0].n).toBe(unlocksBefore);
      await context.close();
    });

    it('allows one insertion in flight: a second insertCoin gets BUSY and no second debit', async () => {
      const context = await newContext(world);
      await signIn(context, DEMO.player.email, DEMO.player.password);
      const player = await playerId(DEMO.player.email);
      const before = (await insertionsOf(player)).length;
      const { page } = await openGame(context);
      // Playwright runs an evaluation as a user gesture, like the player's click (CONTRACT §14.1:
      // user-activation.browser-spec.ts shows a call without one); both calls come under it.
      const results = await gameFrame(page).evaluate(() => Promise.all([window.ArcadeSDK.insertCoin(), window.ArcadeSDK.insertCoin()]));
      expect(results[0]).toMatchObject({ ok: true, testMode: false });
      expect(results[1]).toEqual({ ok: false, reason: 'BUSY' });
      expect((await insertionsOf(player)).length).toBe(before + 1);
      await context.close();
    });

    it('keeps the player cookies out of the game iframe', async () => {
      const context = await newContext(world);
      await signIn(context, DEMO.player.email, DEMO.player.password);
      const { page } = await openGame(context);
      expect((await context.cookies()).map((c) => c.name)).toContain('auth_session');
      expect(await page.getByTestId('game-frame').getAttribute('sandbox')).toBe('allow-scripts');
      const seen = await gameFrame(page).evaluate(() => {
        let cookie: string;
        try {
          cookie = document.cookie;
        } catch (error) {
          cookie = `blocked: ${(error as Error).name}`;
        }
        return { cookie, origin: window.origin, sdk: window.ArcadeSDK.mock };
      });
      expect(seen).toEqual({ cookie: 'blocked: SecurityError', origin: 'null', sdk: false });
      await context.close();
    });

    it('the SDK posts to the host origin only and ignores replies from any other origin', async () => {
      // Made-up sites served by the browser itself: a parent page framing a game that loads the real
      // SDK, and a third-party frame beside it that forges replies.
      const context = await newContext(world);
      // The real SDK, fetched from the service (Chromium would not let a public site load from loopback).
      const sdk = await (await fetch(`${world.origin}/sdk/v1.js`)).text();
      await context.route('http://game.test/sdk.js', (route) => route.fulfill({ contentType: 'text/javascript', body: sdk }));
      await context.route('http://game.test/game.html', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><script>
            window.log = [];
            addEventListener('message', (e) => window.log.push(e.origin + ' ' + (e.data && e.data.data && e.data.data.insertionId)));
          </script><script src="/sdk.js"></script>`,
        }),
      );
      await context.route('http://evil.test/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><script>
            addEventListener('message', (e) => {
              parent.frames[0].postMessage({ __svc: 1, id: e.data.forge, ok: true, data: { insertionId: 'forged', testMode: true } }, '*');
              parent.postMessage('forged', '*');
            });
          </script>`,
        }),
      );
      await context.route('http://parent.test/**', (route) => {
        const host = new URL(route.request().url()).searchParams.get('host')!;
        return route.fulfill({
          contentType: 'text/html',
          // Hands each request's id to the forger first, then answers it itself.
          body: `<!doctype html>
            <iframe id="game" src="http://game.test/game.html#arcadeHost=${encodeURIComponent(host)}"></iframe>
            <iframe id="evil" src="http://evil.test/"></iframe>
            <script>
              window.received = [];
              let pending;
              const game = document.getElementById('game'), evil = document.getElementById('evil');
              addEventListener('message', (e) => {
                if (e.source === game.contentWindow) {
                  window.received.push(e.data);
                  pending = e.data.id;
                  evil.contentWindow.postMessage({ forge: pending }, '*');
                } else if (e.data === 'forged') {
                  setTimeout(() => game.contentWindow.postMessage({ __svc: 1, id: pending, ok: true, data: { insertionId: 'real', testMode: false } }, '*'), 200);
                }
              });
            </script>`,
        });
      });
      const page = await context.newPage();
      const callFromGame = async (host: string) => {
        await page.goto(`http://parent.test/?host=${encodeURIComponent(host)}`);
        const frame = page.frames().find((f) => f.url().startsWith('http://game.test/'))!;
        await frame.waitForFunction(() => typeof window.ArcadeSDK === 'object');
        const result = await frame.evaluate(() => window.ArcadeSDK.insertCoin());
        const log = await frame.evaluate(() => (window as unknown as { log: string[] }).log);
        const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received.length);
        return { result, log, received };
      };

      // Told the truth about its host: the forged reply from http://evil.test arrives first and is
      // ignored; the host's own reply is the answer.
      const right = await callFromGame('http://parent.test');
      expect(right).toEqual({
        result: { ok: true, insertionId: 'real', testMode: false },
        log: ['http://evil.test forged', 'http://parent.test real'],
        received: 1,
      });

      // Told its host is http://arcade.test: the parent at another origin never receives the message,
      // so nothing answers and the call times out after 10 seconds.
      const wrong = await callFromGame('http://arcade.test');
      expect(wrong).toEqual({ result: { ok: false, reason: 'TIMEOUT' }, log: [], received: 0 });
      await context.close();
    });
  });
});
