import { csvField, isAfterMonth, MONTH_PATTERN, statementCsv, statementMonths } from './statement.rules';

describe('statement CSV (RFC 4180)', () => {
  it('quotes only fields with a comma, a quote or a line break, doubling quotes', () => {
    expect(csvField('coin-clicker')).toBe('coin-clicker');
    expect(csvField(12)).toBe('12');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('writes the header, a row per game and the total row, each ending in CRLF', () => {
    const line = { insertions: 2, coins: 4, grossUsd: '1', earnedUsd: '0.7', voidedUsd: '0.35', netUsd: '0.35' };
    expect(statementCsv({ games: [{ gameId: 'g1', slug: 'coin-clicker', ...line }], total: line })).toBe(
      'game_id,slug,insertions,coins,gross_usd,earned_usd,voided_usd,net_usd\r\ng1,coin-clicker,2,4,1,0.7,0.35,0.35\r\ntotal,,2,4,1,0.7,0.35,0.35\r\n',
    );
  });

  it('reads months as YYYY-MM and orders them', () => {
    expect(['2026-11', '2026-01', '1999-12'].every((m) => MONTH_PATTERN.test(m))).toBe(true);
    expect(['2026-13', '2026-00', '2026-1', '0999-01', '2026-11-01', ' 2026-11'].some((m) => MONTH_PATTERN.test(m))).toBe(false);
    expect(isAfterMonth('2026-12', '2026-11')).toBe(true);
    expect(isAfterMonth('2026-11', '2026-11')).toBe(false);
    expect(isAfterMonth('2025-12', '2026-01')).toBe(false);
  });
});

describe('statement months', () => {
  it('lists the months from the developer\'s first to this one, newest first', () => {
    expect(statementMonths(new Date('2025-11-20T10:00:00Z'), new Date('2026-02-03T00:00:00Z'))).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
    expect(statementMonths(new Date('2026-02-01T00:00:00Z'), new Date('2026-02-28T23:59:59Z'))).toEqual(['2026-02']);
    // A clock behind the developer's creation still offers this month.
    expect(statementMonths(new Date('2026-03-01T00:00:00Z'), new Date('2026-02-28T23:59:59Z'))).toEqual(['2026-02']);
  });
});
