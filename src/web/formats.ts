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
