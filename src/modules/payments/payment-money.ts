import { priceCents } from './coin-packs';
import type { PaymentEvent } from './payment-provider';

/** 1 coin = 25 cents (CONTRACT §19). */
const CENTS_PER_COIN = 25;

/** The only currency on sale. */
const CURRENCY = 'usd';

export type MoneyMismatch = 'livemode_mismatch' | 'currency_mismatch' | 'amount_mismatch';

/**
 * Why an event must not move the money of a purchase costing `price` (CONTRACT §19.1), or null:
 * from the other mode than the provider's key (Stripe livemode), in another currency than usd,
 * or a payment of another amount than the price. What an event does not say is not held against it.
 */
export function moneyMismatch(
  event: Pick<PaymentEvent, 'kind' | 'livemode' | 'currency' | 'amountCents'>,
  price: { priceMills: number },
  providerLivemode: boolean | null,
): MoneyMismatch | null {
  if (providerLivemode !== null && event.livemode !== null && event.livemode !== providerLivemode) return 'livemode_mismatch';
  if (event.currency !== null && event.currency !== CURRENCY) return 'currency_mismatch';
  if (event.kind === 'payment_succeeded' && event.amountCents !== null && event.amountCents !== priceCents(price)) return 'amount_mismatch';
  return null;
}

/** The coins refunds take back in all once `refundedCents` are refunded: ceil(cents / 25), at most the purchase's coins. */
export function refundCoins(coins: number, refundedCents: number): number {
  return Math.min(coins, Math.ceil(refundedCents / CENTS_PER_COIN));
}

/**
 * The cents refunded after a refund event: the provider's running total (Stripe amount_refunded),
 * else what was refunded plus this refund, else (no amount) the whole price; never more than the
 * price, never less than before (a late or repeated total takes nothing).
 */
export function refundedAfterRefund(
  purchase: { priceMills: number; refundedCents: number },
  event: Pick<PaymentEvent, 'amountCents' | 'refundedTotalCents'>,
): number {
  const price = priceCents(purchase);
  const total = event.refundedTotalCents ?? (event.amountCents === null ? price : purchase.refundedCents + event.amountCents);
  return Math.min(price, Math.max(purchase.refundedCents, total));
}

/** The cents refunded after a refund of `amountCents` failed (all refunded so far when no amount is given), never below 0. */
export function refundedAfterReversal(refundedCents: number, amountCents: number | null): number {
  return Math.max(0, refundedCents - (amountCents ?? refundedCents));
}
