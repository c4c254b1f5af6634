import type { NextFunction, Request, Response } from 'express';
import onHeaders from 'on-headers';

/** A year: for files whose path carries their version (they never change under that path). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * What may be cached, decided in one place (issue 14):
 *
 * - Every answer starts as `Cache-Control: no-store`: API answers carry a user's or an account's
 *   data, and errors are never cached (the exception filter sets it again on every error).
 *   Handlers of public files opt in with `publicCache()` (the SDK, page scripts and styles, the
 *   demo games).
 * - Pages differ by who is signed in (the header, redirects to sign in): HTML answers and
 *   redirects outside `/api/` that are not public get `Vary: Cookie`, decided when the headers go
 *   out, whoever rendered the page. API requests skip that hook: it costs nothing on the hot paths.
 */
export function cachePolicy() {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Cache-Control', 'no-store');
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/')) onHeaders(res, varyOnCookie);
    next();
  };
}

function varyOnCookie(this: Response): void {
  const cacheControl = String(this.getHeader('Cache-Control') ?? '');
  if (cacheControl.startsWith('public')) return;
  const redirect = this.statusCode >= 300 && this.statusCode < 400;
  if (!redirect && !String(this.getHeader('Content-Type') ?? '').startsWith('text/html')) return;
  const vary = String(this.getHeader('Vary') ?? '');
  if (!/\bcookie\b/i.test(vary)) this.setHeader('Vary', vary ? `${vary}, Cookie` : 'Cookie');
}

/** A public file: cached by browsers and shared caches for `maxAgeSeconds`, or for a year when its path carries its version. */
export function publicCache(res: Response, cache: { maxAgeSeconds: number } | 'immutable'): void {
  res.setHeader('Cache-Control', cache === 'immutable' ? IMMUTABLE : `public, max-age=${cache.maxAgeSeconds}`);
}
