/** The reconciliation's period (CONTRACT §22): `YYYY-MM-DD` days, UTC, inclusive. Pure. */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `day` (`YYYY-MM-DD`) is a real calendar day. */
export function isCalendarDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day && at.getUTCFullYear() >= 1000;
}

export type PeriodProblem = 'from-not-a-day' | 'to-not-a-day' | 'to-after-today' | 'to-before-from';

/** The period asked for, with its defaults (the first of this month to today), or what is wrong with it. */
export function periodOf(query: { from?: string; to?: string }, now: Date): { from: string; to: string } | { problem: PeriodProblem } {
  const today = now.toISOString().slice(0, 10);
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  const to = query.to ?? today;
  if (!isCalendarDay(from)) return { problem: 'from-not-a-day' };
  if (!isCalendarDay(to)) return { problem: 'to-not-a-day' };
  if (to > today) return { problem: 'to-after-today' };
  if (to < from) return { problem: 'to-before-from' };
  return { from, to };
}

export const PERIOD_MESSAGES: Record<PeriodProblem, string> = {
  'from-not-a-day': 'From: enter a date as YYYY-MM-DD, such as 2026-11-01.',
  'to-not-a-day': 'To: enter a date as YYYY-MM-DD, such as 2026-11-30.',
  'to-after-today': 'To: the books can be checked up to today (UTC), not later.',
  'to-before-from': 'To: choose a day on or after From.',
};
