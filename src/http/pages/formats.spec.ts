import { dateText, dateTimeText, moneyText, shortIdText, wholeNumberText } from './formats';

describe('page formats (CONTRACT §17.2)', () => {
  it.each([
    ['0.7', '$0.70'],
    ['2.5', '$2.50'],
    ['0.175', '$0.175'],
    ['1250', '$1,250.00'],
    ['1250.000', '$1,250.00'],
    ['0', '$0.00'],
    ['-2.5', '-$2.50'],
    ['1234567.8901', '$1,234,567.8901'],
  ])('money %s reads %s', (usd, text) => {
    expect(moneyText(usd)).toBe(text);
  });

  it('writes dates and date-times in UTC with the month in words', () => {
    expect(dateText('2026-11-27T23:24:00.000Z')).toBe('27 Nov 2026');
    expect(dateTimeText('2026-11-27T19:47:05.000Z')).toBe('27 Nov 2026, 19:47 UTC');
  });

  it('writes counts with comma thousands separators and cuts long ids with an ellipsis', () => {
    expect(wholeNumberText(1250)).toBe('1,250');
    expect(wholeNumberText('1000000')).toBe('1,000,000');
    expect(shortIdText('0b7c3a2e-5d1f-4c44-9a0e-3f1b2c4d5e6f')).toBe('0b7c3a2e…');
    expect(shortIdText('short')).toBe('short');
  });
});
