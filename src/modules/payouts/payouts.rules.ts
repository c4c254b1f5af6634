/**
 * The payout rules of CONTRACT §22 as plain functions: what is available, who is paid, and how much
 * (in whole cents). Money in mills (1/1000 USD), exact integers.
 */
/** The same words as the books' payout view (books/payout.view.ts), which the payouts' answers are built with. */
export type PayoutMethodKind = 'sandbox' | 'stripe';
export type PayoutStatus = 'pending' | 'paid' | 'failed';

export const PAYOUT_METHOD_KINDS: readonly PayoutMethodKind[] = ['sandbox', 'stripe'];
export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['pending', 'paid', 'failed'];

/** A Stripe Connect account id (the database checks the same pattern). */
export const STRIPE_ACCOUNT_PATTERN = /^acct_[A-Za-z0-9]+$/;

export const MILLS_PER_CENT = 10;

/** What may be paid out: the balance less what is held, never below zero (a void after a payout may make the balance negative). */
export function availableMills(balanceMills: number, heldMills: number): number {
  return Math.max(0, balanceMills - heldMills);
}

/** Payouts are whole cents (Stripe moves cents): the available amount floored to a cent; the rest stays for the next payout. */
export function payoutAmountMills(availableMills: number): number {
  return availableMills - (availableMills % MILLS_PER_CENT);
}

/**
 * The amount a run pays a developer, or 0 when none: only with a payout method, and only when what
 * is available reaches the minimum (a whole number of cents, so the floored amount reaches it too).
 */
export function payoutDue(input: { balanceMills: number; heldMills: number; minimumMills: number; hasMethod: boolean }): number {
  if (!input.hasMethod) return 0;
  const available = availableMills(input.balanceMills, input.heldMills);
  if (available < input.minimumMills) return 0;
  const amount = payoutAmountMills(available);
  return amount > 0 ? amount : 0;
}
