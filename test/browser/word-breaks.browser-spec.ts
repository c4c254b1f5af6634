/**
 * CONTRACT §17.2 "Tables": at 1280 px no word is broken across lines inside a table header, a
 * cell's word or a button (a version label of 40 characters is one word); long ids, URLs and
 * e-mail addresses that do not fit are cut with a visible ellipsis (`.long-text`, one line),
 * never broken. Long but realistic data is seeded, then every page with a table is measured in
 * the browser: each word of each text node is wrapped in a Range, and a word whose boxes sit on
 * more than one line is broken; a header or a button must also hold its text (`scrollWidth` within
 * `clientWidth`), a button on one line. The page itself never scrolls sideways.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminCookie, createAchievement, createApiKey, signUpPlayer } from '../support/factories';
import { buy } from '../support/payments';
import { fundPlayer, paidSession, postInitials, postScore } from '../support/play';
import { BrowserWorld, screenshot, signIn, startBrowserWorld } from '../support/browser';

// Long but realistic values, each at (or near) the longest the API takes.
const LONG = {
  developerEmail: 'quasar.nebula.release-engineering.team@pixelforge-games.test', // 60
  playerEmail: 'maximilian.featherstonehaugh-bonaventur@players-example.test', // 60
  playerName: 'Maximilian Featherstonehaugh-Bo',
  studio: 'Pixelforge Interactive Entertainment Studios',
  title: 'Captain Quasar and the Nebula Pirates: The Complete Remastered Collection',
  slug: 'captain-quasar-and-the-nebula-pirates-remastered-collection',
  label: '2026.11.27-release-candidate.build-00042', // 40, no spaces
  pendingLabel: '2026.12.01-release-candidate.build-00057',
  rejectedLabel: '2026.11.20-release-candidate.build-00031',
  entryUrl: 'https://cdn.pixelforge-games.test/builds/captain-quasar/2026.11.27-release-candidate/index.html?channel=stable',
  achievementKey: 'collect-every-golden-coin-in-the-bonus-stage-048', // 48
  achievementName: 'Collector of Every Golden Coin Anywhere!',
  keyName: 'production-backend-eu-west-primary-node1', // 40
  reason: 'The build does not load in Safari: the entry URL answers 404 for its main JavaScript bundle.',
};

interface Failure {
  table: string;
  text: string;
  problem: string;
}

/**
 * Runs in the page: every table's headers, cell words and buttons, measured. Kept free of outer
 * names and of `async` (it is sent to the page as its source text).
 */
function measureTables(): Failure[] {
  const failures: Failure[] = [];
  const visible = (element: Element): boolean => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
  const hiddenText = (element: Element): boolean => !!element.closest('.visually-hidden, template, [hidden]');
  /** The distinct lines a range's boxes sit on. */
  const lines = (range: Range): number => {
    const tops: number[] = [];
    for (const rect of Array.from(range.getClientRects())) {
      if (rect.width === 0 || rect.height === 0) continue;
      if (!tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) tops.push(rect.top);
    }
    return tops.length;
  };
  const tableName = (table: HTMLTableElement): string => {
    const caption = table.caption?.textContent?.trim();
    if (caption) return caption;
    const label = table.getAttribute('aria-label');
    if (label) return label;
    const heading = table.closest('section')?.querySelector('h2');
    return heading?.textContent?.trim() ?? table.className;
  };
  for (const table of Array.from(document.querySelectorAll<HTMLTableElement>('table'))) {
    if (!visible(table)) continue;
    const name = tableName(table);
    const fail = (text: string, problem: string): void => {
      failures.push({ table: name, text: text.replace(/\s+/g, ' ').trim().slice(0, 80), problem });
    };
    // The table fits the page's column, or scrolls sideways inside its own region.
    const box = table.parentElement!;
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    if (!scrolls && table.getBoundingClientRect().right > box.getBoundingClientRect().right + 1) {
      fail('', `table wider than its column (${Math.round(table.getBoundingClientRect().width)} > ${box.clientWidth})`);
    }
    // Every word of every text node of a header or a cell (long-text and hidden text aside).
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = node.parentElement;
      if (!parent || !parent.closest('th, td') || hiddenText(parent) || parent.closest('.long-text') || !visible(parent)) continue;
      const text = node.data;
      const words = /\S+/g;
      for (let match = words.exec(text); match; match = words.exec(text)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        if (lines(range) > 1) fail(match[0], 'word broken across lines');
      }
    }
    // Headers and buttons hold their text; a button's label is one line.
    for (const header of Array.from(table.querySelectorAll<HTMLElement>('th'))) {
      if (!visible(header) || hiddenText(header)) continue;
      if (header.scrollWidth > header.clientWidth) fail(header.textContent ?? '', `header overflows (${header.scrollWidth} > ${header.clientWidth})`);
    }
    for (const button of Array.from(table.querySelectorAll<HTMLElement>('button, .button, input[type="submit"]'))) {
      if (!visible(button) || hiddenText(button)) continue;
      const range = document.createRange();
      range.selectNodeContents(button);
      if (lines(range) > 1) fail(button.textContent ?? '', 'button label on more than one line');
      if (button.scrollWidth > button.clientWidth) fail(button.textContent ?? '', `button overflows (${button.scrollWidth} > ${button.clientWidth})`);
    }
    // A long value is cut with its ellipsis on one line, never wrapped.
    for (const long of Array.from(table.querySelectorAll<HTMLElement>('.long-text'))) {
      if (!visible(long)) continue;
      const rects = Array.from(long.getClientRects());
      if (rects.length !== 1 || getComputedStyle(long).whiteSpace !== 'nowrap') fail(long.title || (long.textContent ?? ''), 'long text not on one line');
      if (getComputedStyle(long).textOverflow !== 'ellipsis') fail(long.title || (long.textContent ?? ''), 'long text without an ellipsis');
    }
  }
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) failures.push({ table: '(page)', text: '', problem: `the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})` });
  return failures;
}

describe('tables keep their words whole at 1280 px (CONTRACT §17.2 "Tables")', () => {
  let world: BrowserWorld;
  let gameId: string;
  const contexts: Record<'developer' | 'player' | 'admin', BrowserContext | null> = { developer: null, player: null, admin: null };

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    const { t } = world;
    const admin = await adminCookie(t);
    /** The answer's body once its status is the one expected (ids are all these tests read from it). */
    const expectOk = async (request: PromiseLike<{ status: number; body: Record<string, string> }>, status: number, what: string): Promise<{ body: Record<string, string> }> => {
      const res = await request;
      if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return res;
    };

    // A developer with a 60-character e-mail, a long game title and slug, 40-character labels.
    const developer = await signUpPlayer(t, { email: LONG.developerEmail, displayName: 'Quasar Release Team', verified: true });
    await expectOk(t.http().post('/api/portal/developer').set('Cookie', developer.cookie).send({ displayName: LONG.studio }), 201, 'become developer');
    const game = await expectOk(t.http().post('/api/portal/games').set('Cookie', developer.cookie).send({ slug: LONG.slug, title: LONG.title, coinsPerCredit: 1 }), 201, 'create game');
    gameId = game.body.gameId;
    const addVersion = (label: string) =>
      expectOk(t.http().post(`/api/portal/games/${gameId}/versions`).set('Cookie', developer.cookie).send({ label, entryUrl: LONG.entryUrl }), 201, `version ${label}`);
    const rejected = await addVersion(LONG.rejectedLabel);
    await expectOk(t.http().post(`/api/admin/versions/${rejected.body.versionId}/reject`).set('Cookie', admin).send({ reason: LONG.reason }), 200, 'reject');
    const live = await addVersion(LONG.label);
    await expectOk(t.http().post(`/api/admin/versions/${live.body.versionId}/approve`).set('Cookie', admin), 200, 'approve');
    await expectOk(t.http().post(`/api/portal/games/${gameId}/publish`).set('Cookie', developer.cookie).send({ versionId: live.body.versionId }), 200, 'publish');
    await addVersion(LONG.pendingLabel); // waits in the admin's "Review"
    await createAchievement(t, developer, gameId, { key: LONG.achievementKey, name: LONG.achievementName, description: 'Pick up every golden coin hidden in the bonus stage without losing a life.' });
    await createApiKey(t, developer, 'live', LONG.keyName);

    // A player with a 60-character e-mail: coins, a paid round with a score and initials, a purchase.
    const player = await signUpPlayer(t, { email: LONG.playerEmail, displayName: LONG.playerName, verified: true });
    await fundPlayer(t, player, 12_500);
    for (const score of [987_654_321, 123_456]) {
      const { sessionId } = await paidSession(t, player, LONG.slug);
      const scored = await postScore(t, player, sessionId, score);
      if (scored.status !== 200) throw new Error(`score: ${scored.status} ${JSON.stringify(scored.body)}`);
      await postInitials(t, player, sessionId, scored.body.scoreId as string, 'MAX').expect(200);
    }
    await expectOk(buy(t, player, 'pack-100'), 201, 'buy');

    for (const [who, account] of [
      ['developer', developer],
      ['player', player],
      ['admin', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }],
    ] as const) {
      const context = await world.browser.newContext({ baseURL: world.origin, viewport: { width: 1280, height: 800 } });
      await signIn(context, account.email, account.password);
      contexts[who] = context;
    }
  });

  afterAll(async () => {
    await world?.close();
  });

  it('finds no word broken in any table header, cell or button on every page with a table', async () => {
    const pages: { name: string; who: keyof typeof contexts; path: () => string; ready: (page: Page) => Promise<void> }[] = [
      {
        name: '/me',
        who: 'player',
        path: () => '/me',
        ready: async (page) => {
          await page.getByRole('table', { name: 'Wallet history' }).waitFor();
          await page.getByRole('table', { name: 'Purchases' }).waitFor();
        },
      },
      {
        name: '/games/{slug}',
        who: 'player',
        path: () => `/games/${LONG.slug}`,
        ready: async (page) => {
          await page.getByTestId('leaderboard').getByRole('row').filter({ hasText: 'MAX' }).first().waitFor();
        },
      },
      { name: '/developer', who: 'developer', path: () => '/developer', ready: (page) => page.getByRole('table', { name: 'Your games' }).waitFor() },
      {
        name: '/developer/games/{gameId}',
        who: 'developer',
        path: () => `/developer/games/${gameId}`,
        ready: async (page) => {
          await page.getByRole('table', { name: 'Versions' }).waitFor();
          await page.getByRole('table', { name: 'Achievements' }).waitFor();
        },
      },
      { name: '/developer/keys', who: 'developer', path: () => '/developer/keys', ready: (page) => page.getByRole('table', { name: 'Your keys' }).waitFor() },
      {
        name: '/developer/earnings',
        who: 'developer',
        path: () => '/developer/earnings',
        ready: async (page) => {
          await page.getByRole('table', { name: 'Earnings', exact: true }).waitFor();
          await page.getByRole('table', { name: 'Daily earnings' }).waitFor();
        },
      },
      {
        // Every section showing rows: the review queue, the games, a user found, a game's scores, the audit log.
        name: '/admin',
        who: 'admin',
        path: () => `/admin?user=${encodeURIComponent('maximilian')}&game=${gameId}`,
        ready: async (page) => {
          for (const table of ['Pending versions', 'All games, newest first', 'Users found', 'Saved scores', 'Audit log']) {
            await page.getByRole('table', { name: table }).getByRole('row').nth(1).waitFor();
          }
        },
      },
    ];
    const failures: string[] = [];
    for (const pageCase of pages) {
      const page = await contexts[pageCase.who]!.newPage();
      const response = await page.goto(pageCase.path());
      expect({ page: pageCase.name, status: response?.status() }).toEqual({ page: pageCase.name, status: 200 });
      await pageCase.ready(page);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      for (const failure of await page.evaluate(measureTables)) failures.push(`${pageCase.name} · ${failure.table} · "${failure.text}": ${failure.problem}`);
      await screenshot(page, `word-breaks ${pageCase.name.replace(/[/{}]/g, '_')}`);
      // At 360 px the rows stack into cards, and the long values still never push the page sideways.
      await page.setViewportSize({ width: 360, height: 740 });
      const phone = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      if (phone.scroll > phone.client) failures.push(`${pageCase.name} at 360 px: the page scrolls sideways (${phone.scroll} > ${phone.client})`);
      await page.close();
    }
    expect(failures).toEqual([]);
  });
});
