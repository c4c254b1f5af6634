/**
 * Where a page may send a visitor next (CONTRACT §17.1): the login page's `next`, the checkout's
 * `return`. Pure, so the server and anything else that reads such a target share the one rule.
 */

/** Any origin works as the base: only whether the target stays on it matters. */
const BASE = 'http://same-origin.invalid';

/** `//host` is protocol-relative; `/\host` is too, for browsers that read `\` as `/`. */
const OFF_SITE = /^[/\\]{2}/;

/**
 * `next` when it is a path on this origin, as a browser would resolve it, else `fallback`. The
 * check runs on the raw value AND on the normalised path (dot segments removed, `%2e` read as
 * `.`): `/.//evil.example` resolves to the path `//evil.example`, which a browser given it as a
 * Location goes to as another host (issue 26 item 8).
 */
export function safeRedirectPath(next: unknown, fallback = '/me'): string {
  if (typeof next !== 'string' || next.length > 2048) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters in a redirect target are refused on purpose
  if (!next.startsWith('/') || OFF_SITE.test(next) || /[\\\u0000-\u001f\u007f]/.test(next)) return fallback;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  return OFF_SITE.test(path) ? fallback : path;
}
