/**
 * How pages write times and counts (CONTRACT §17.2), the same on the server and in the page
 * script, whatever the browser's locale: `27 Nov 2026, 19:47 UTC`, `27 Nov 2026`, `1,250`.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `27 Nov 2026` for an ISO date-time (the UTC calendar day). */
export function dateText(iso: string): string {
  const at = new Date(iso);
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

/** `27 Nov 2026, 19:47 UTC` for an ISO date-time. */
export function dateTimeText(iso: string): string {
  const at = new Date(iso);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${dateText(iso)}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

/** A whole number (a count, coins, a score as decimal digits) with comma thousands separators. */
export function wholeNumberText(value: number | string): string {
  const digits = typeof value === 'number' ? String(Math.trunc(value)) : value;
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * US dollars for a page (§17.2): `$`, comma thousands separators, at least two decimals and more
 * only where the exact amount needs them: `0.7` → `$0.70`, `0.175` → `$0.175`, `1250` →
 * `$1,250.00`, `-2.5` → `-$2.50`. Takes the API's exact decimal strings (never a float's rounding).
 */
export function moneyText(usd: string | number): string {
  const text = typeof usd === 'number' ? String(usd) : usd.trim();
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const decimals = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}$${wholeNumberText(whole.replace(/^0+(?=\d)/, '') || '0')}.${decimals}`;
}

/** A long id cut for a table: its first 8 characters and an ellipsis (the full value goes in a `title`). */
export function shortIdText(id: string, keep = 8): string {
  return id.length <= keep + 1 ? id : `${id.slice(0, keep)}…`;
}
