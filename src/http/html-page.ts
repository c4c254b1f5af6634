import { randomBytes } from 'node:crypto';
import type { Response } from 'express';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

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

/** Strict CSP for a server-rendered page: only its own inline script (by nonce), our stylesheet, our API. */
export function nonceCsp(nonce: string): string {
  return pageCsp(`'nonce-${nonce}'`);
}

/** Sends an HTML page rendered with a fresh nonce, never cached, never framed. */
export function sendNoncePage(res: Response, render: (nonce: string) => string, status = 200): void {
  const nonce = randomBytes(16).toString('base64');
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', nonceCsp(nonce));
  res.setHeader('X-Frame-Options', 'DENY');
  res.send(render(nonce));
}

/**
 * The opening of a stand-alone page (login, developer keys): head with our stylesheet, body with
 * the given attributes, skip link and top bar. `bodyAttributes` must already be escaped.
 */
export function standalonePageStart(title: string, bodyAttributes: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/arcade.css">
</head>
<body ${bodyAttributes}>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar"><a class="brand" href="/"><span aria-hidden="true">🕹️</span> Arcade</a></header>
`;
}
