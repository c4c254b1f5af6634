/**
 * How pages write times and counts (CONTRACT §17.2), the same on the server and in the page
 * script, whatever the browser's locale: `27 Nov 2026, 19:47 UTC`, `27 Nov 2026`, `1,250`.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `27 Nov 2026` for an ISO date-time or a Date (the UTC calendar day). */
export function dateText(at: string | Date): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `19:47 UTC` for a Date. */
export function timeOfDayText(date: Date): string {
  return `${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
}

/** `27 Nov 2026, 19:47 UTC` for an ISO date-time or a Date (parsed once: a page writes dozens). */
export function dateTimeText(at: string | Date): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return `${dateText(date)}, ${timeOfDayText(date)}`;
}

/** A whole number (a count, coins, a score as decimal digits) with comma thousands separators. */
export function wholeNumberText(value: number | string): string {
  const digits = typeof value === 'number' ? String(Math.trunc(value)) : value;
  // Most counts on a page are under 1,000: no separator to place, no regular expression to run.
  if (digits.length < 4) return digits;
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * US dollars for a page (§17.2): `$`, comma thousands separators, at least two decimals and more
 * only where the exact amount needs them: `0.7` → `$0.70`, `0.175` → `$0.175`, `1250` →
 * `$1,250.00`, `-2.5` → `-$2.50`. Takes the API's exact decimal strings (never a float's rounding).
 */
export function moneyText(usd: string | number): string {
  const text = typeof usd === 'number' ? String(usd) : usd.trim();
  const negative = text.charCodeAt(0) === 45; // '-'
  const unsigned = negative ? text.slice(1) : text;
  const point = unsigned.indexOf('.');
  let whole = point < 0 ? unsigned : unsigned.slice(0, point);
  let fraction = point < 0 ? '' : unsigned.slice(point + 1);
  while (whole.length > 1 && whole.charCodeAt(0) === 48) whole = whole.slice(1); // leading '0'
  while (fraction.length > 2 && fraction.charCodeAt(fraction.length - 1) === 48) fraction = fraction.slice(0, -1); // trailing '0' past the cents
  return `${negative ? '-' : ''}$${wholeNumberText(whole || '0')}.${fraction.padEnd(2, '0')}`;
}

/** A long id cut for a table: its first 8 characters and an ellipsis (the full value goes in a `title`). */
export function shortIdText(id: string, keep = 8): string {
  return id.length <= keep + 1 ? id : `${id.slice(0, keep)}…`;
}
