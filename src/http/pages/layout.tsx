/**
 * The one layout of every HTML page of the service (CONTRACT §17.1): head, the header (banner
 * landmark) with the account's links, the main landmark, the footer. Pages are typed JSX rendered
 * to a string by preact-render-to-string, which escapes every text and attribute value.
 */
import type { ComponentChildren, JSX } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Response } from 'express';
import { assetPath } from '../asset-path';
import { PAGE_CSP, sendHtml } from '../html-page';
import type { AccountContext } from '../account-auth';
import { ICON_NODES } from './icons';
import { ApiForm, SvgIcon } from './components';

/** Who is looking at a page: the signed-in account, as the page guard resolved it. */
export type Viewer = AccountContext;

type Section = 'games' | 'me' | 'developer' | 'admin' | 'none';

export interface LayoutProps {
  /** The page's own title; " — Arcade" is appended. */
  title: string;
  viewer: Viewer | null;
  /** Names the page for the page script (`document.body.dataset.page`). */
  page: string;
  /** The header link this page belongs under (marked `aria-current`). */
  section?: Section;
  /** This page's path: a signed-out visitor's "Sign in" link comes back here. */
  path?: string;
  /** Bundles loaded after pages.js (the host page's own script). */
  scripts?: 'host'[];
  /** `data-*` attributes of `<body>` for the page script. */
  data?: Record<string, string>;
  mainClass?: string;
  children: ComponentChildren;
}

function signInHref(path: string | undefined): string {
  if (!path || path.startsWith('/auth/')) return '/auth/login';
  return `/auth/login?next=${encodeURIComponent(path)}`;
}

function NavLink(props: { href: string; current: boolean; children: string }) {
  return (
    <li>
      <a href={props.href} aria-current={props.current ? 'page' : undefined}>
        {props.children}
      </a>
    </li>
  );
}

/** The §17.1 header: Games, My profile, Developer, Admin (admins only), Sign out or Sign in. */
export function Header(props: { viewer: Viewer | null; section: Section; path?: string }) {
  const { viewer, section } = props;
  return (
    <header class="topbar">
      <a class="brand" href="/">
        <SvgIcon node={ICON_NODES.joystick} /> Arcade
      </a>
      <nav aria-label="Main" class="nav">
        <ul>
          <NavLink href="/" current={section === 'games'}>Games</NavLink>
          <NavLink href="/me" current={section === 'me'}>My profile</NavLink>
          <NavLink href="/developer" current={section === 'developer'}>Developer</NavLink>
          {viewer?.isAdmin ? <NavLink href="/admin" current={section === 'admin'}>Admin</NavLink> : null}
        </ul>
      </nav>
      <div class="account">
        {viewer ? (
          <>
            <span class="who">{viewer.displayName}</span>
            <ApiForm method="POST" action="/auth/logout" after="navigate" next="/" class="sign-out">
              <button type="submit" class="button secondary small">
                Sign out
              </button>
            </ApiForm>
          </>
        ) : (
          <a class="button secondary small" href={signInHref(props.path)}>
            Sign in
          </a>
        )}
      </div>
    </header>
  );
}

export function Layout(props: LayoutProps) {
  const data = Object.fromEntries(Object.entries(props.data ?? {}).map(([name, value]) => [`data-${name}`, value]));
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${props.title} — Arcade`}</title>
        <link rel="icon" href="data:," />
        {/* Versioned paths, cached for a year (issue 14: http/asset-path.ts). */}
        <link rel="stylesheet" href={assetPath('arcade.css')} />
        <script src={assetPath('pages.js')} defer></script>
        {(props.scripts ?? []).map((name) => (
          <script src={assetPath(`${name}.js`)} defer></script>
        ))}
      </head>
      <body data-page={props.page} {...data}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <Header viewer={props.viewer} section={props.section ?? 'none'} path={props.path} />
        <main id="main" class={props.mainClass ?? 'wrap'}>
          <p id="flash" class="flash" role="status" aria-live="polite"></p>
          {props.children}
        </main>
        <footer class="footer">
          <a href="/docs">API documentation</a> · <a href="/sdk/v1.d.ts">SDK types</a>
        </footer>
      </body>
    </html>
  );
}

/** The HTML 404 page (§17.1): the header, heading "Not found", nothing of the resource asked for. */
export function NotFoundPage(props: { viewer: Viewer | null; path?: string }) {
  return (
    <Layout title="Not found" viewer={props.viewer} page="not-found" path={props.path}>
      <section class="hero">
        <h1>Not found</h1>
        <p>There is nothing to show at this address.</p>
        <a class="button primary" href="/">
          All games
        </a>
      </section>
    </Layout>
  );
}

/** The admin console to an admin whose two-factor authentication is off while ADMIN_REQUIRE_2FA is true (CONTRACT §20): status 403. */
export function TwoFactorRequiredPage(props: { viewer: Viewer | null; path?: string }) {
  return (
    <Layout title="Two-factor authentication required" viewer={props.viewer} page="two-factor-required" path={props.path}>
      <section class="hero">
        <h1>Two-factor authentication required</h1>
        <p>Administrators must turn on two-factor authentication before using the admin console.</p>
        <a class="button primary" href="/me/settings">
          Turn it on in Settings
        </a>
      </section>
    </Layout>
  );
}

/** A page as the browser receives it. */
export function renderPage(page: JSX.Element): string {
  return `<!doctype html>\n${renderToString(page)}`;
}

/** Renders and sends a page through the one HTML send helper. */
export function sendPage(res: Response, page: JSX.Element, options: { status?: number; csp?: string } = {}): void {
  sendHtml(res, options.status ?? 200, renderPage(page), options.csp ?? PAGE_CSP);
}
