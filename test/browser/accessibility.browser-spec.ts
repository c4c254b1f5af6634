/**
 * CONTRACT §17.1 accessibility: on every page of §17 (sign-in and the 404 page included, signed in
 * as the right role) axe-core finds no serious or critical violation at 1280×800 and 360×740, in
 * the light and the dark colour scheme; at 360 px nothing scrolls sideways; every control is
 * reached with Tab and shows a visible focus indicator.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO } from '../../src/web/demo-seed.service';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminCookie, createApiKey, createGame, logIn, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { playAndScore, postInitials } from '../support/play';
import { BrowserWorld, signIn, startBrowserWorld } from '../support/browser';

type Who = 'visitor' | 'player' | 'newcomer' | 'unverified' | 'developer' | 'admin';

interface PageCase {
  name: string;
  who: Who;
  path: () => string;
  status?: number;
  /** Brings the page into a state worth checking too (a dialog open, a key shown). */
  act?: (page: Page) => Promise<void>;
}

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
] as const;

describe('accessibility of the pages (CONTRACT §17.1)', () => {
  let world: BrowserWorld;
  let gameId: string;
  let suspendedGameId: string;
  const contexts = new Map<Who, BrowserContext>();

  const PAGES: PageCase[] = [
    { name: 'sign-in', who: 'visitor', path: () => '/auth/login' },
    { name: 'forgot password', who: 'visitor', path: () => '/auth/forgot' },
    { name: 'forgot password (sent)', who: 'visitor', path: () => '/auth/forgot?sent=1' },
    { name: 'reset password', who: 'visitor', path: () => `/auth/reset-password?token=${'A'.repeat(43)}` },
    { name: '404', who: 'player', path: () => '/developer/no-such-page', status: 404 },
    { name: 'catalogue', who: 'visitor', path: () => '/' },
    {
      name: 'game page',
      who: 'player',
      path: () => `/games/${DEMO.game.slug}`,
      // "Your best" filled: the demo player scored in beforeAll (CONTRACT §17.2).
      act: async (page) => {
        await page.getByRole('region', { name: 'Your best' }).getByRole('definition').first().waitFor();
      },
    },
    { name: 'game page signed out', who: 'visitor', path: () => `/games/${DEMO.game.slug}` },
    { name: 'game page (e-mail not verified)', who: 'unverified', path: () => `/games/${DEMO.game.slug}` },
    { name: '/me', who: 'player', path: () => '/me' },
    // CONTRACT §17.2 "Next steps are said": "Verify your e-mail" with "Resend e-mail".
    { name: '/me (e-mail not verified)', who: 'unverified', path: () => '/me' },
    { name: '/me/settings', who: 'player', path: () => '/me/settings' },
    {
      name: 'host page',
      who: 'player',
      path: () => `/play/${DEMO.game.slug}`,
      act: async (page) => {
        await page.frameLocator('[data-testid="game-frame"]').locator('#hello').filter({ hasText: 'Hi ' }).waitFor();
      },
    },
    {
      name: 'host page (e-mail not verified)',
      who: 'unverified',
      path: () => `/play/${DEMO.game.slug}`,
      act: async (page) => {
        await page.getByTestId('balance').filter({ hasText: 'coins' }).waitFor();
      },
    },
    { name: '/developer (not a developer)', who: 'newcomer', path: () => '/developer' },
    { name: '/developer', who: 'developer', path: () => '/developer' },
    { name: '/developer/games/{gameId}', who: 'developer', path: () => `/developer/games/${gameId}` },
    { name: '/developer/payouts', who: 'developer', path: () => '/developer/payouts' },
    { name: '/developer/games/{gameId} suspended', who: 'developer', path: () => `/developer/games/${suspendedGameId}` },
    {
      name: '/developer/games/{gameId} editing an achievement',
      who: 'developer',
      path: () => `/developer/games/${gameId}`,
      act: async (page) => {
        await page.getByRole('table', { name: 'Achievements' }).getByRole('row').nth(1).getByRole('button', { name: 'Edit' }).click();
        await page.getByRole('dialog').waitFor();
      },
    },
    {
      // CONTRACT §17.2: a destructive action's dialog, open in its row.
      name: '/developer/games/{gameId} confirming a retire',
      who: 'developer',
      path: () => `/developer/games/${gameId}`,
      act: async (page) => {
        await page.getByRole('table', { name: 'Achievements' }).getByRole('row').nth(1).getByRole('button', { name: 'Retire', exact: true }).click();
        await page.getByRole('dialog', { name: /^Retire / }).waitFor();
      },
    },
    {
      name: '/developer/keys with a new key shown',
      who: 'developer',
      path: () => '/developer/keys',
      act: async (page) => {
        const form = page.getByRole('form', { name: 'Create key' });
        const name = `axe ${Date.now()}`;
        await form.getByLabel('Name').fill(name);
        await form.getByRole('button', { name: 'Create key' }).click();
        await page.getByRole('button', { name: 'Copy key' }).waitFor();
        // The key is shown before the list is fetched again; the list's controls are checked once they are the new ones.
        await page.getByRole('table', { name: 'Your keys' }).getByRole('row').filter({ hasText: name }).waitFor();
      },
    },
    { name: '/developer/earnings', who: 'developer', path: () => '/developer/earnings' },
    { name: '/developer/webhooks', who: 'developer', path: () => '/developer/webhooks' },
    // Every section filled: a user found, a game chosen.
    { name: '/admin', who: 'admin', path: () => `/admin?user=${encodeURIComponent(DEMO.player.email)}&game=${gameId}` },
    {
      name: '/admin confirming a ban',
      who: 'admin',
      path: () => `/admin?user=${encodeURIComponent(DEMO.player.email)}`,
      act: async (page) => {
        await page.getByRole('row').filter({ hasText: DEMO.player.email }).getByRole('button', { name: 'Ban', exact: true }).click();
        await page.getByRole('dialog').waitFor();
      },
    },
  ];

  beforeAll(async () => {
    world = await startBrowserWorld({ ADMIN_EMAIL, ADMIN_PASSWORD });
    gameId = (await world.t.db.query<{ id: string }>('SELECT id FROM games WHERE slug = $1', [DEMO.game.slug])).rows[0]!.id;
    const newcomer = await signUpVerifiedPlayer(world.t, { displayName: 'Newcomer' });
    const unverified = await signUpPlayer(world.t, { displayName: 'Unverified' });
    const demoDeveloper = await logIn(world.t, DEMO.developer.email, DEMO.developer.password);
    await createApiKey(world.t, { cookie: demoDeveloper }, 'live', 'production backend');
    // A suspended game of the demo developer's, an approved version waiting (no "Publish" offered).
    const suspended = await createGame(world.t, { cookie: demoDeveloper }, { title: 'Suspended Sample' });
    suspendedGameId = suspended.gameId;
    const admin = await adminCookie(world.t);
    await world.t.http().post(`/api/admin/versions/${suspended.versionId}/approve`).set('Cookie', admin).expect(200);
    await world.t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', admin).expect(200);
    // The demo player's score, with initials (nothing left pending), on the game page's "Your best".
    const demoPlayer = { cookie: await logIn(world.t, DEMO.player.email, DEMO.player.password) };
    const played = await playAndScore(world.t, demoPlayer, DEMO.game.slug, 1234);
    await postInitials(world.t, demoPlayer, played.sessionId, played.scoreId as string, 'DEM').expect(200);
    const accounts: Record<Who, { email: string; password: string } | null> = {
      visitor: null,
      player: DEMO.player,
      newcomer,
      unverified,
      developer: DEMO.developer,
      admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    };
    for (const [who, account] of Object.entries(accounts) as [Who, { email: string; password: string } | null][]) {
      const context = await world.browser.newContext({ baseURL: world.origin });
      if (account) await signIn(context, account.email, account.password);
      contexts.set(who, context);
    }
  });

  afterAll(async () => {
    await world?.close();
  });

  async function open(pageCase: PageCase, viewport: { width: number; height: number }, colorScheme: 'light' | 'dark'): Promise<Page> {
    const page = await contexts.get(pageCase.who)!.newPage();
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    const response = await page.goto(pageCase.path());
    expect({ page: pageCase.name, status: response?.status() }).toEqual({ page: pageCase.name, status: pageCase.status ?? 200 });
    await page.waitForLoadState('networkidle');
    if (pageCase.act) await pageCase.act(page);
    return page;
  }

  it.each(PAGES.map((p) => [p.name, p] as const))('%s: no serious or critical axe violation, nothing scrolls sideways at 360 px', async (_name, pageCase) => {
    const problems: string[] = [];
    // One load per page: the layout is CSS media queries only (no script reads the width or the
    // scheme), so resizing and switching the scheme in place shows what a fresh load at that size would.
    const page = await open(pageCase, VIEWPORTS[0], 'light');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const results = await new AxeBuilder({ page }).analyze();
        for (const violation of results.violations) {
          if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
          const where = violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`);
          problems.push(`${viewport.width}px ${colorScheme}: ${violation.id} (${violation.impact}) ${where.join(' | ')}`);
        }
        if (viewport.width === 360) {
          const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
          if (overflow.scroll > overflow.client) problems.push(`360px ${colorScheme}: the page scrolls sideways (${overflow.scroll} > ${overflow.client})`);
        }
      }
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it('reaches every control with Tab, each with a visible focus indicator', async () => {
    const problems: string[] = [];
    for (const pageCase of PAGES) {
      const page = await open(pageCase, VIEWPORTS[0], 'light');
      // Every control a keyboard user must reach: one stop per radio group (the checked radio).
      const expected = await page.evaluate(() => {
        const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';
        const candidates = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((element) => {
          if (element.closest('[inert], template') || (element as HTMLButtonElement).disabled) return false;
          if (element.getAttribute('tabindex') === '-1') return false;
          const dialog = document.querySelector('dialog[open]');
          if (dialog && !dialog.contains(element)) return false;
          if (element instanceof HTMLInputElement && element.type === 'radio') {
            const group = Array.from(element.form?.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${element.name}"]`) ?? [element]);
            const stop = group.find((radio) => radio.checked) ?? group[0];
            if (stop !== element) return false;
          }
          const box = element.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
        });
        candidates.forEach((element, i) => element.setAttribute('data-tab-check', String(i)));
        return candidates.map((element) => `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? (element as HTMLInputElement).name ?? '').trim().slice(0, 30)}"`);
      });
      const reached = new Set<string>();
      for (let i = 0; i < expected.length * 2 + 10 && reached.size < expected.length; i++) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element || element === document.body) return null;
          const style = getComputedStyle(element);
          const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
          return { mark: element.getAttribute('data-tab-check'), ring, what: `${element.tagName.toLowerCase()} ${element.id || element.className}` };
        });
        if (!focus?.mark) continue;
        reached.add(focus.mark);
        if (!focus.ring) problems.push(`${pageCase.name}: no visible focus ring on ${focus.what}`);
      }
      expected.forEach((what, i) => {
        if (!reached.has(String(i))) problems.push(`${pageCase.name}: Tab never reaches ${what}`);
      });
      await page.close();
    }
    expect(problems).toEqual([]);
  });
});
