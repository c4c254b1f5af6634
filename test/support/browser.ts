/**
 * Real-browser tests: the real service listening on a real port (on a fresh real database),
 * driven by Debian's Chromium through playwright-core. Screenshots go to test-artifacts/browser/.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { createTestApp, TestApp } from './app';

export { eventually } from './eventually';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts', 'browser');

/** A port that was free a moment ago: the app must know its own origin before it listens. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface BrowserWorld {
  t: TestApp;
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

/** The app (demo world seeded, admin bootstrapped) on http://127.0.0.1:PORT and a headless Chromium. */
export async function startBrowserWorld(env: Record<string, string> = {}): Promise<BrowserWorld> {
  const port = await freePort();
  const t = await createTestApp({ env: { PORT: String(port), SEED_DEMO: 'true', ...env } });
  await t.app.nest.listen(port, '127.0.0.1');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    t,
    origin: `http://127.0.0.1:${port}`,
    browser,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** A fresh browser profile (own cookies) whose relative URLs resolve against the app. */
export function newContext(world: BrowserWorld): Promise<BrowserContext> {
  return world.browser.newContext({ baseURL: world.origin, viewport: { width: 1100, height: 900 } });
}

/** Signs in through POST /auth/login from inside the browser profile: the cookie lands in the browser. */
export async function signIn(context: BrowserContext, email: string, password: string): Promise<void> {
  const res = await context.request.post('/auth/login', { data: { email, password } });
  if (res.status() !== 200) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}


const AUDIT_VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
];

/**
 * What a person would meet on the page as it stands: serious or critical axe violations at 1280 and
 * 360 px in light and dark, and sideways scrolling at 360 px; a screenshot of each (`name-WIDTH-SCHEME`).
 * Leaves the page at 1100 × 900, light.
 */
export async function pageProblems(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const viewport of AUDIT_VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        const where = violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`);
        problems.push(`${name} ${viewport.width}px ${colorScheme}: ${violation.id} (${violation.impact}) ${where.join(' | ')}`);
      }
      if (viewport.width === 360) {
        const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        if (overflow.scroll > overflow.client) problems.push(`${name} 360px ${colorScheme}: the page scrolls sideways (${overflow.scroll} > ${overflow.client})`);
      }
      await screenshot(page, `${name}-${viewport.width}-${colorScheme}`);
    }
  }
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}
