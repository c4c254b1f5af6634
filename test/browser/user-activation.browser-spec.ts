/**
 * CONTRACT §14.1 "Only the player spends coins": the host page sends insert-coin only while it has
 * transient user activation (a click or key in the game's frame counts), else the game's call
 * resolves USER_ACTION_REQUIRED and nothing reaches the API.
 *
 * The games here are served from an external origin (a server on 127.0.0.1 of their own) and
 * report every SDK answer back to that server, so the test reads them without running script in
 * the browser: Playwright's evaluations (locators included) count as user gestures in Chromium,
 * and the host page would take them for the player's. The click below is raw mouse input at
 * coordinates read through the DevTools DOM domain, which runs no script either.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createDeveloper, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer } from '../support/play';
import { BrowserWorld, eventually, newContext, signIn, startBrowserWorld } from '../support/browser';

interface Report {
  kind: 'load' | 'call' | 'click' | 'done';
  result?: Record<string, unknown>;
}

/** How a game reports to its own server: a simple cross-origin POST, readable by the test in Node. */
const REPORT = `function report(kind, result) {
  fetch('/report', { method: 'POST', mode: 'no-cors', body: JSON.stringify({ kind: kind, result: result }) });
}`;

/** Calls insertCoin() every 600 ms for 10 s from a timer: no player ever touches it. */
const TIMER_GAME = `<!doctype html><title>Timer</title><script src="/sdk.js"></script><script>
${REPORT}
ArcadeSDK.init().then(function () {
  var calls = 0, answered = 0;
  var timer = setInterval(function () {
    if (++calls === 17) clearInterval(timer);
    ArcadeSDK.insertCoin().then(function (result) {
      report('call', result);
      if (++answered === 17) report('done');
    });
  }, 600);
});
</script>`;

/** Tries once on load (no gesture), then inserts a coin when the player clicks anywhere in it. */
const CLICK_GAME = `<!doctype html><title>Click</title>
<style>html, body { margin: 0; height: 100%; } button { position: fixed; inset: 0; width: 100%; height: 100%; }</style>
<button id="coin" type="button">Insert coin</button>
<script src="/sdk.js"></script><script>
${REPORT}
ArcadeSDK.init().then(function () {
  return ArcadeSDK.insertCoin();
}).then(function (result) {
  report('load', result);
  document.getElementById('coin').addEventListener('click', function () {
    ArcadeSDK.insertCoin().then(function (result) { report('click', result); });
  });
});
</script>`;

interface GameServer {
  origin: string;
  reports: Report[];
  close(): Promise<void>;
}

async function startGameServer(sdk: string): Promise<GameServer> {
  const reports: Report[] = [];
  const pages: Record<string, string> = { '/timer.html': TIMER_GAME, '/click.html': CLICK_GAME };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/report') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        reports.push(JSON.parse(body) as Report);
        res.writeHead(204).end();
      });
      return;
    }
    if (req.url === '/sdk.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
    const page = pages[req.url ?? ''];
    if (page) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('only the player spends coins: insert-coin needs the player\'s own gesture (CONTRACT §14.1)', () => {
  let world: BrowserWorld;
  let games: GameServer;
  let timerSlug: string;
  let clickGame: { slug: string; versionId: string };
  let developer: Awaited<ReturnType<typeof createDeveloper>>;

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    games = await startGameServer(await (await fetch(`${world.origin}/sdk/v1.js`)).text());
    developer = await createDeveloper(world.t);
    timerSlug = (await publishGame(world.t, developer, { coinsPerCredit: 1, entryUrl: `${games.origin}/timer.html` })).slug;
    clickGame = await publishGame(world.t, developer, { coinsPerCredit: 1, entryUrl: `${games.origin}/click.html` });
  });

  afterAll(async () => {
    await games?.close();
    await world?.close();
  });

  beforeEach(() => {
    games.reports.length = 0;
  });

  async function fundedPlayer(coins: number) {
    const player = await signUpVerifiedPlayer(world.t);
    await fundPlayer(world.t, player, coins);
    return player;
  }

  async function insertions(playerId: string): Promise<number> {
    return (await world.t.db.query('SELECT count(*)::int AS n FROM insertions WHERE player_id = $1', [playerId])).rows[0].n;
  }

  async function balance(playerId: string): Promise<number> {
    const row = await world.t.db.query('SELECT balance::int AS balance FROM wallets WHERE player_id = $1', [playerId]);
    return row.rows[0].balance;
  }

  const reportsOf = (kind: Report['kind']) => games.reports.filter((r) => r.kind === kind);

  /**
   * A raw mouse click in the middle of the game's frame: no script runs in either page to find the
   * spot. The frame's box is read until two reads 100 ms apart agree, so a host page still laying
   * out (its message line filling in on a loaded machine) cannot move the frame from under the click.
   */
  async function clickInGame(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    const frameBox = async () => {
      const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-testid="game-frame"]' });
      const { model } = await cdp.send('DOM.getBoxModel', { nodeId });
      const [left, top, right, , , bottom] = model.content as number[];
      return { x: (left + right) / 2, y: (top + bottom) / 2 };
    };
    let box = await frameBox();
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const again = await frameBox();
      if (again.x === box.x && again.y === box.y) break;
      box = again;
    }
    await page.mouse.click(box.x, box.y);
    await cdp.detach();
  }

  it('a game calling insertCoin() every 600 ms for 10 s with no gesture spends nothing', async () => {
    const player = await fundedPlayer(50);
    const context = await newContext(world);
    await signIn(context, player.email, player.password);
    const page = await context.newPage();
    // Only the navigation: no locator, no evaluation in either page until the game has finished.
    await page.goto(`/play/${timerSlug}`);
    await eventually(async () => reportsOf('done').length, (n) => n === 1, { withinMs: 30_000 });

    const answers = reportsOf('call').map((r) => r.result);
    expect(answers).toHaveLength(17);
    expect(answers).toEqual(Array(17).fill({ ok: false, reason: 'USER_ACTION_REQUIRED' }));
    expect(await insertions(player.playerId)).toBe(0);
    expect(await balance(player.playerId)).toBe(50);
    // The host shows nothing for it: the balance stands and no error is said.
    expect(await page.getByTestId('balance').textContent()).toBe('50 coins');
    expect(await page.getByTestId('message').textContent()).toMatch(/^Signed in as /);
    await context.close();
  });

  /** Opens the click game: its call on load (no gesture) is answered, then the player clicks in it. */
  async function loadThenClick(user: { email: string; password: string }, path: string) {
    const context = await newContext(world);
    await signIn(context, user.email, user.password);
    const page = await context.newPage();
    await page.goto(path);
    await eventually(async () => reportsOf('load').length, (n) => n === 1, { withinMs: 20_000 });
    const onLoad = reportsOf('load')[0].result;
    await clickInGame(page);
    await eventually(async () => reportsOf('click').length, (n) => n === 1, { withinMs: 20_000 });
    return { context, page, onLoad, onClick: reportsOf('click')[0].result };
  }

  it('a click in the game lets insertCoin() pay; the same call without one did not', async () => {
    const player = await fundedPlayer(5);
    const { context, page, onLoad, onClick } = await loadThenClick(player, `/play/${clickGame.slug}`);
    expect(onLoad).toEqual({ ok: false, reason: 'USER_ACTION_REQUIRED' });
    expect(onClick).toEqual({ ok: true, insertionId: expect.stringMatching(/^[0-9a-f-]{36}$/), testMode: false });
    expect(await insertions(player.playerId)).toBe(1);
    expect(await balance(player.playerId)).toBe(4);
    await page.getByTestId('balance').filter({ hasText: '4 coins' }).waitFor();
    await context.close();
  });

  it('holds in test mode too: the owner\'s preview answers USER_ACTION_REQUIRED until a click', async () => {
    const { context, onLoad, onClick } = await loadThenClick(developer, `/play/${clickGame.slug}?version=${clickGame.versionId}`);
    expect(onLoad).toEqual({ ok: false, reason: 'USER_ACTION_REQUIRED' });
    expect(onClick).toEqual({ ok: true, insertionId: expect.stringMatching(/^test_/), testMode: true });
    await context.close();
  });
});
