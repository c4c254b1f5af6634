/**
 * A month's statement as CSV (CONTRACT §22): RFC 4180 — commas, CRLF line ends, a field quoted only
 * when it holds a comma, a quote, a CR or a LF (its quotes doubled). Pure: no framework, no database.
 */
export const STATEMENT_CSV_HEADER = ['game_id', 'slug', 'insertions', 'coins', 'gross_usd', 'earned_usd', 'voided_usd', 'net_usd'] as const;

export interface StatementLine {
  insertions: number;
  coins: number;
  grossUsd: string;
  earnedUsd: string;
  voidedUsd: string;
  netUsd: string;
}

/** `YYYY-MM` of a statement: a year from 1000 to 9999 and a month 01 to 12. */
export const MONTH_PATTERN = /^[1-9]\d{3}-(0[1-9]|1[0-2])$/;

/** The month `YYYY-MM` (UTC) that `at` falls in. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Whether month `a` comes after month `b` (both `YYYY-MM`: they compare as text). */
export function isAfterMonth(a: string, b: string): boolean {
  return a > b;
}

/** One field, quoted only where RFC 4180 needs it. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The statement's CSV: the header, a row per game, then the total row (`game_id` "total", `slug` empty); every line ends in CRLF. */
export function statementCsv(statement: { games: (StatementLine & { gameId: string; slug: string })[]; total: StatementLine }): string {
  const row = (gameId: string, slug: string, line: StatementLine) =>
    [gameId, slug, line.insertions, line.coins, line.grossUsd, line.earnedUsd, line.voidedUsd, line.netUsd].map(csvField).join(',');
  const lines = [STATEMENT_CSV_HEADER.join(','), ...statement.games.map((game) => row(game.gameId, game.slug, game)), row('total', '', statement.total)];
  return lines.map((line) => `${line}\r\n`).join('');
}

/** The months a developer has statements for: from the month it became a developer to `now`'s, newest first. */
export function statementMonths(since: Date, now: Date): string[] {
  const months: string[] = [];
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth();
  const first = monthOf(since);
  for (;;) {
    const text = `${year}-${String(month + 1).padStart(2, '0')}`;
    if (text < first && months.length > 0) break;
    months.push(text);
    if (text <= first) break;
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
  }
  return months;
}
