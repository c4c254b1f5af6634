import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentProviderName } from '../../config';

export type { PaymentProviderName } from '../../config';

/** What an event means to a purchase, whatever the provider called it. */
export type PaymentEventKind = 'payment_succeeded' | 'payment_failed' | 'refund' | 'dispute' | 'other';

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
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * The event, when the signature over `rawBody` verifies and its timestamp is within 5 minutes of
   * now either way; 400 INVALID_SIGNATURE otherwise, 400 INVALID_REQUEST when a verified body is
   * not a JSON event with `id` and `type`.
   */
  verifyEvent(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent;
}

/** Nest token of the configured provider. */
export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

/** Seconds a signature's timestamp may be from now, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
