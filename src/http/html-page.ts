import type { Response } from 'express';

/** The CSP of our pages: scripts as given, our stylesheet and images, our API, never framed. */
export function pageCsp(scriptSrc: string): string {
  return [
    "default-src 'none'",
    `script-src ${scriptSrc}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** CSP of every server-rendered page: our own bundled scripts and stylesheet, our own API, never framed. */
export const PAGE_CSP = pageCsp("'self'");

/** CSP of the host page: as a page, plus the game's entry origin as the only frame source. */
export function hostCsp(frameSource: string): string {
  return `${PAGE_CSP}; frame-src ${frameSource}`;
}

/** CSP of the demo game: its own files only, no network, framed by our host page only. */
export const DEMO_GAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The one place an HTML page leaves the service: every page carries the same headers (a page
 * shows who is signed in, so it is never stored by a cache). Headers that apply to all pages
 * belong here, not in the page handlers.
 */
export function sendHtml(res: Response, status: number, html: string, csp = PAGE_CSP): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.send(html);
}
