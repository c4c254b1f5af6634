import type { NextFunction, Request, Response } from 'express';

/** A year: for files whose path carries their version (they never change under that path). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * What may be cached, decided in one place (issue 14):
 *
 * - Every answer starts as `Cache-Control: no-store`: API answers carry a user's or an account's
 *   data, and errors are never cached (the exception filter sets it again on every error).
 *   Handlers of public files opt in with `publicCache()` (the SDK, page scripts and styles, the
 *   demo games).
 * - Pages differ by who is signed in (the header, redirects to sign in): every GET or HEAD outside
 *   `/api/` starts with `Vary: Cookie`, whoever renders the page or redirects, and `publicCache()`
 *   takes it off again. On an answer that is not stored anyway (no-store: JSON, errors) it changes
 *   nothing. It is set here, up front, rather than by a hook on `writeHead` when the headers go out
 *   (on-headers, until issue 14's follow-up): no per-request closure and wrapper, 2% less CPU on
 *   `/health/live` in an interleaved comparison (docs/performance.md).
 */
export function cachePolicy() {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Cache-Control', 'no-store');
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/')) res.setHeader('Vary', 'Cookie');
    next();
  };
}

/** A public file: cached by browsers and shared caches for `maxAgeSeconds`, or for a year when its path carries its version. */
export function publicCache(res: Response, cache: { maxAgeSeconds: number } | 'immutable'): void {
  const vary = String(res.getHeader('Vary') ?? '')
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '' && field.toLowerCase() !== 'cookie');
  if (vary.length > 0) res.setHeader('Vary', vary.join(', '));
  else res.removeHeader('Vary');
  res.setHeader('Cache-Control', cache === 'immutable' ? IMMUTABLE : `public, max-age=${cache.maxAgeSeconds}`);
}
