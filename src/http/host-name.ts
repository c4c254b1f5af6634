/**
 * A host a page may name in its CSP (frame-src) and link to: an IP literal, or a host name of
 * letter-digit-hyphen labels. Takes `URL.hostname`, so the WHATWG parser has already lower-cased
 * it, turned an internationalised name into punycode (`xn--…`) and IPv4 forms into dotted quads.
 * That parser lets `;`, `,`, `*`, `'`, `=` and `_` through in host names (issue 26 item 11).
 */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

export function isPlainHost(hostname: string): boolean {
  if (IPV6.test(hostname)) return true;
  if (hostname.length === 0 || hostname.length > 253) return false;
  return hostname.split('.').every((label) => LABEL.test(label));
}
