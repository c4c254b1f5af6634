import { isCalendarDay, periodOf } from './reconciliation.rules';

describe('reconciliation period', () => {
  const now = new Date('2026-11-28T10:00:00Z');

  it('defaults to the first of this month through today (UTC)', () => {
    expect(periodOf({}, now)).toEqual({ from: '2026-11-01', to: '2026-11-28' });
    expect(periodOf({ from: '2026-01-01' }, now)).toEqual({ from: '2026-01-01', to: '2026-11-28' });
  });

  it('takes one day, and refuses a to after today or before from, and days that are not days', () => {
    expect(periodOf({ from: '2026-11-28', to: '2026-11-28' }, now)).toEqual({ from: '2026-11-28', to: '2026-11-28' });
    expect(periodOf({ to: '2026-11-29' }, now)).toEqual({ problem: 'to-after-today' });
    expect(periodOf({ from: '2026-11-10', to: '2026-11-09' }, now)).toEqual({ problem: 'to-before-from' });
    expect(periodOf({ from: '2026-02-30' }, now)).toEqual({ problem: 'from-not-a-day' });
    expect(periodOf({ to: '2026-1-01' }, now)).toEqual({ problem: 'to-not-a-day' });
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2025-02-29')).toBe(false);
  });
});
