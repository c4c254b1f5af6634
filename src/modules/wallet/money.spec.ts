import { earningFor, millsToUsd, usdToMills } from './money';

describe('money in mills', () => {
  it('splits an insertion 70% to the developer, in exact integers', () => {
    expect(earningFor(1)).toEqual({ grossMills: 250, earnedMills: 175 });
    expect(earningFor(2)).toEqual({ grossMills: 500, earnedMills: 350 });
    expect(earningFor(5)).toEqual({ grossMills: 1250, earnedMills: 875 });
    for (let coins = 1; coins <= 5; coins++) {
      const { grossMills, earnedMills } = earningFor(coins);
      expect(earnedMills * 10).toBe(grossMills * 7);
    }
  });

  it('refuses a non-positive or fractional number of coins', () => {
    expect(() => earningFor(0)).toThrow(RangeError);
    expect(() => earningFor(1.5)).toThrow(RangeError);
  });

  it('writes dollars with no more decimals than needed', () => {
    expect(millsToUsd(0)).toBe('0');
    expect(millsToUsd(175)).toBe('0.175');
    expect(millsToUsd(1500)).toBe('1.5');
    expect(millsToUsd(1050)).toBe('1.05');
    expect(millsToUsd(250)).toBe('0.25');
    expect(millsToUsd(2000)).toBe('2');
    expect(millsToUsd('123456789012345678901')).toBe('123456789012345678.901');
  });

  it('matches the issue example: 3 insertions at 2 coins → 1.5 gross, 1.05 earned', () => {
    const gross = 3 * earningFor(2).grossMills;
    const earned = 3 * earningFor(2).earnedMills;
    expect([millsToUsd(gross), millsToUsd(earned)]).toEqual(['1.5', '1.05']);
  });

  it('reads a money string back into mills, the inverse of millsToUsd', () => {
    for (const mills of [0, 175, 1500, 1050, 250, 2000, -175, -1050, 9_007_199_254_740]) expect(usdToMills(millsToUsd(mills))).toBe(mills);
    for (const bad of ['', '1.2345', '1,5', 'abc', '.5', '1.']) expect(() => usdToMills(bad)).toThrow(RangeError);
  });
});
