import { moneyMismatch, refundCoins, refundedAfterRefund, refundedAfterReversal } from './payment-money';

const pack40 = { priceMills: 10_000 };
const paid = (kind: 'payment_succeeded' | 'refund', fields: { amountCents?: number; currency?: string; livemode?: boolean }) => ({
  kind,
  amountCents: fields.amountCents ?? null,
  currency: fields.currency ?? null,
  livemode: fields.livemode ?? null,
});

describe('moneyMismatch', () => {
  it('lets through what matches, and what an event does not say', () => {
    expect(moneyMismatch(paid('payment_succeeded', { amountCents: 1000, currency: 'usd', livemode: false }), pack40, false)).toBeNull();
    expect(moneyMismatch(paid('payment_succeeded', {}), pack40, false)).toBeNull();
    expect(moneyMismatch(paid('payment_succeeded', { livemode: true }), pack40, null)).toBeNull();
  });

  it('refuses another amount (payments only), another currency, another mode', () => {
    expect(moneyMismatch(paid('payment_succeeded', { amountCents: 1 }), pack40, null)).toBe('amount_mismatch');
    expect(moneyMismatch(paid('refund', { amountCents: 1 }), pack40, null)).toBeNull();
    expect(moneyMismatch(paid('refund', { currency: 'eur' }), pack40, null)).toBe('currency_mismatch');
    expect(moneyMismatch(paid('payment_succeeded', { amountCents: 1000, livemode: true }), pack40, false)).toBe('livemode_mismatch');
    expect(moneyMismatch(paid('payment_succeeded', { amountCents: 1000, livemode: false }), pack40, true)).toBe('livemode_mismatch');
  });
});

describe('refunds', () => {
  it('take back ceil(total cents / 25) coins, never more than the purchase holds', () => {
    expect([0, 1, 25, 26, 125, 999, 1000, 5000].map((cents) => refundCoins(40, cents))).toEqual([0, 1, 1, 2, 5, 40, 40, 40]);
  });

  it('run on a total: added amounts, a provider total, or the rest of the price; capped; never backwards', () => {
    expect(refundedAfterRefund({ ...pack40, refundedCents: 100 }, { amountCents: 30, refundedTotalCents: null })).toBe(130);
    expect(refundedAfterRefund({ ...pack40, refundedCents: 100 }, { amountCents: null, refundedTotalCents: null })).toBe(1000);
    expect(refundedAfterRefund({ ...pack40, refundedCents: 900 }, { amountCents: 500, refundedTotalCents: null })).toBe(1000);
    expect(refundedAfterRefund({ ...pack40, refundedCents: 300 }, { amountCents: 1000, refundedTotalCents: 200 })).toBe(300);
    expect(refundedAfterRefund({ ...pack40, refundedCents: 300 }, { amountCents: 1000, refundedTotalCents: 450 })).toBe(450);
  });

  it('a failed refund lowers the total by its amount (all of it without one), never below 0', () => {
    expect(refundedAfterReversal(300, 100)).toBe(200);
    expect(refundedAfterReversal(300, 500)).toBe(0);
    expect(refundedAfterReversal(300, null)).toBe(0);
  });
});
