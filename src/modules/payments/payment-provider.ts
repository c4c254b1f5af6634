import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentProviderName } from '../../config';

export type { PaymentProviderName } from '../../config';

/** What an event means to a purchase, whatever the provider called it. */
export type PaymentEventKind = 'payment_succeeded' | 'payment_failed' | 'refund' | 'refund_reversal' | 'dispute' | 'dispute_won' | 'dispute_lost' | 'other';

/** A verified provider event, reduced to what moves a purchase. */
export interface PaymentEvent {
  id: string;
  /** The provider's own type (`payment.succeeded`, `checkout.session.completed`, ...). */
  type: string;
  kind: PaymentEventKind;
  /** The purchase id the event names, when it names one (not necessarily a known or valid id). */
  purchaseRef: string | null;
  /** The provider's checkout (Stripe: the Checkout Session id). */
  checkoutRef: string | null;
  /** The provider's payment (Stripe: the PaymentIntent id): how refunds and disputes find their purchase. */
  paymentRef: string | null;
  /** The refund or dispute the event is about (Stripe: re_…, dp_…): a failed refund is given back once. */
  objectRef: string | null;
  /**
   * The event's own amount in cents, when it gives one: paid (sandbox amountCents, Stripe
   * amount_total), refunded by this event (sandbox), given back by a failed refund, disputed, or
   * (Stripe charge.refunded) the charge's.
   */
  amountCents: number | null;
  /** The payment's refunds so far in cents (Stripe charge.refunded's amount_refunded: cumulative). */
  refundedTotalCents: number | null;
  /** Lower case (`usd`), when the event names one. */
  currency: string | null;
  /** Stripe: whether the event is from live mode; null when the provider has no modes. */
  livemode: boolean | null;
  /** SHA-256 (hex) of the raw body: an id seen again with another body is told apart. */
  bodyHash: string;
}

export interface CheckoutRequest {
  purchaseId: string;
  coins: number;
  priceMills: number;
}

export interface Checkout {
  /** Where the player pays: this service's sandbox page, or the provider's. */
  url: string;
  /** The provider's id of the checkout, when it has one. */
  ref: string | null;
}

/**
 * The port every payment provider adapter implements (CONTRACT §19): start a checkout for a
 * purchase, and verify an incoming webhook over its raw body. What an event does to the money is
 * the same for every provider (PaymentEventsService).
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The mode events must come from (Stripe: the secret key's); null when the provider has none. */
  readonly livemode: boolean | null;
  /**
   * Opens the purchase's checkout, never inside a database transaction. The purchase id is the
   * provider's idempotency key (a retry never opens a second checkout); `signal` aborts when the
   * CHECKOUT_BUDGET_MS are spent (the caller stops waiting then either way).
   */
  createCheckout(request: CheckoutRequest, signal: AbortSignal): Promise<Checkout>;
  /**
   * The event, when the signature over `rawBody` verifies and its timestamp is within 5 minutes of
   * now either way; 400 INVALID_SIGNATURE otherwise, 400 INVALID_REQUEST when a verified body is
   * not a JSON event with `id` and `type`.
   */
  verifyEvent(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent;
}

/** How long a provider may take to open a checkout before the purchase fails 503 (CONTRACT §19.1). */
export const CHECKOUT_BUDGET_MS = 5000;

/** Nest token of the configured provider. */
export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

/** Seconds a signature's timestamp may be from now, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
