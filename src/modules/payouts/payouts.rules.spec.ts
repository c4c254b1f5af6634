import { availableMills, payoutAmountMills, payoutDue } from './payouts.rules';

describe('payout rules (CONTRACT §22)', () => {
  it('makes available the balance less what is held, never below zero', () => {
    expect(availableMills(30_000, 5_000)).toBe(25_000);
    expect(availableMills(3_000, 5_000)).toBe(0);
    expect(availableMills(-1_750, 0)).toBe(0);
  });

  it('pays whole cents, flooring the mills', () => {
    expect(payoutAmountMills(25_175)).toBe(25_170);
    expect(payoutAmountMills(25_000)).toBe(25_000);
    expect(payoutAmountMills(9)).toBe(0);
  });

  it('pays only developers with a method and at least the minimum available', () => {
    expect(payoutDue({ balanceMills: 25_175, heldMills: 0, minimumMills: 25_000, hasMethod: true })).toBe(25_170);
    expect(payoutDue({ balanceMills: 25_175, heldMills: 0, minimumMills: 25_000, hasMethod: false })).toBe(0);
    expect(payoutDue({ balanceMills: 24_999, heldMills: 0, minimumMills: 25_000, hasMethod: true })).toBe(0);
    expect(payoutDue({ balanceMills: 60_000, heldMills: 35_001, minimumMills: 25_000, hasMethod: true })).toBe(0);
    expect(payoutDue({ balanceMills: 60_000, heldMills: 35_000, minimumMills: 25_000, hasMethod: true })).toBe(25_000);
  });
});
