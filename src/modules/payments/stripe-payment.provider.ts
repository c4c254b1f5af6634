import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { CONFIG, Config } from '../../config';
import { InvalidRequestError, ServiceUnavailableError } from '../../errors/app-error';
import { assertNotFromTheFuture, bodyHash, centsField, currencyField, eventObject, idField, isObject, stringField } from './payment-event.parse';
import { CHECKOUT_BUDGET_MS, Checkout, CheckoutRequest, PaymentEvent, PaymentEventKind, PaymentProvider, SIGNATURE_TOLERANCE_SECONDS } from './payment-provider';
import { InvalidSignatureError } from './payments.errors';
import { priceCents } from './coin-packs';

/**
 * The Stripe event types of CONTRACT §19 and §19.1, and the two that finish a Checkout paid by a
 * delayed method (a bank debit completes the session `unpaid` and settles later). A refund
 * Stripe reports failed comes as charge.refund.updated, refund.updated or refund.failed (whichever
 * the endpoint listens to: each refund is given back once); a closed dispute as
 * charge.dispute.closed, whose status says won or lost.
 */
const KINDS: Record<string, PaymentEventKind> = {
  'checkout.session.completed': 'payment_succeeded',
  'checkout.session.expired': 'payment_failed',
  'charge.refunded': 'refund',
  'charge.dispute.created': 'dispute',
  'checkout.session.async_payment_succeeded': 'payment_succeeded',
  'checkout.session.async_payment_failed': 'payment_failed',
  'charge.refund.updated': 'refund_reversal',
  'refund.updated': 'refund_reversal',
  'refund.failed': 'refund_reversal',
};

/** The event's kind, from its type and, for refunds and closed disputes, the object's status. */
function kindOf(type: string, object: unknown): PaymentEventKind {
  const kind = KINDS[type] ?? 'other';
  const status = stringField(object, 'status');
  if (type === 'charge.dispute.closed') return status === 'won' ? 'dispute_won' : status === 'lost' ? 'dispute_lost' : 'other';
  // A session completed by a delayed method is not money yet: its async_payment_* event settles it.
  if (type === 'checkout.session.completed' && stringField(object, 'payment_status') === 'unpaid') return 'other';
  if (kind === 'refund_reversal') return status === 'failed' ? kind : 'other';
  return kind;
}

/** Live or test mode, from the secret key (sk_live_/rk_live_ or sk_test_/rk_test_); null for a key that says neither. */
export function keyLivemode(secretKey: string): boolean | null {
  if (/^[sr]k_live_/.test(secretKey)) return true;
  if (/^[sr]k_test_/.test(secretKey)) return false;
  return null;
}

/**
 * Stripe Checkout through the official `stripe` package (CONTRACT §19). A purchase is one Checkout
 * Session, created with the purchase id as Stripe idempotency key, client reference
 * and metadata (also on the PaymentIntent). Webhooks are verified by `stripe.webhooks.constructEvent`
 * over the raw body. Refunds and disputes name the PaymentIntent, which the completed session
 * told us; one that arrives before it is kept by PaymentEventsService until it does.
 */
@Injectable()
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly livemode: boolean | null;
  private readonly logger = new Logger('Stripe');
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly origin: string;

  constructor(@Inject(CONFIG) config: Config) {
    const { stripeSecretKey, stripeWebhookSecret, stripeApiUrl } = config.payments;
    if (!stripeSecretKey || !stripeWebhookSecret) throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.');
    const api = stripeApiUrl ? new URL(stripeApiUrl) : undefined;
    this.stripe = new Stripe(stripeSecretKey, {
      timeout: 5000,
      maxNetworkRetries: 1,
      telemetry: false,
      ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
    });
    this.webhookSecret = stripeWebhookSecret;
    this.livemode = keyLivemode(stripeSecretKey);
    this.origin = config.publicOrigin;
  }

  /** Stripe's client cannot be aborted: the request's own timeout is the budget, and the caller stops waiting at it. */
  async createCheckout(request: CheckoutRequest, _signal: AbortSignal): Promise<Checkout> {
    const back = `${this.origin}/checkout/${request.purchaseId}`;
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.purchaseId,
          metadata: { purchaseId: request.purchaseId },
          payment_intent_data: { metadata: { purchaseId: request.purchaseId } },
          line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: priceCents(request), product_data: { name: `${request.coins} arcade coins` } } }],
          success_url: back,
          cancel_url: back,
        },
        // One try within the budget; a later retry of the purchase sends the same key, so Stripe answers the same session.
        { idempotencyKey: `purchase-${request.purchaseId}`, timeout: CHECKOUT_BUDGET_MS, maxNetworkRetries: 0 },
      );
    } catch (error) {
      this.logger.warn({ purchaseId: request.purchaseId, reason: error instanceof Error ? error.message : String(error) }, 'Stripe Checkout Session not created');
      throw new ServiceUnavailableError('The payment provider could not start a checkout; try again with the same idempotency key.');
    }
    if (!session.url) throw new ServiceUnavailableError('The payment provider gave no checkout address; try again with the same idempotency key.');
    return { url: session.url, ref: session.id };
  }

  verifyEvent(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent {
    const header = headers['stripe-signature'];
    if (typeof header !== 'string' || header.length === 0) throw new InvalidSignatureError('The Stripe-Signature header is missing.');
    let parsed: unknown;
    try {
      parsed = this.stripe.webhooks.constructEvent(rawBody, header, this.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new InvalidSignatureError();
      // Verified, but the body is not JSON.
      throw new InvalidRequestError('The verified body is not JSON.');
    }
    const timestamp = /(?:^|,)t=(\d+)/.exec(header);
    assertNotFromTheFuture(Number(timestamp![1]));
    const event = eventObject(parsed);
    const object = isObject(event.data) ? event.data.object : undefined;
    const type = event.type;
    const isSession = type.startsWith('checkout.session.');
    const isRefund = type === 'charge.refund.updated' || type.startsWith('refund.');
    return {
      id: event.id,
      type,
      kind: kindOf(type, object),
      purchaseRef: (isSession ? stringField(object, 'client_reference_id') : null) ?? stringField(isObject(object) ? object.metadata : undefined, 'purchaseId'),
      checkoutRef: isSession ? stringField(object, 'id') : null,
      paymentRef: idField(object, 'payment_intent'),
      objectRef: isRefund || type.startsWith('charge.dispute.') ? stringField(object, 'id') : null,
      // A session's total; a charge's, refund's or dispute's amount (charge.refunded: the charge's, its refunds so far below).
      amountCents: centsField(object, isSession ? 'amount_total' : 'amount'),
      refundedTotalCents: type === 'charge.refunded' ? centsField(object, 'amount_refunded') : null,
      currency: currencyField(object, 'currency'),
      livemode: typeof event.livemode === 'boolean' ? event.livemode : null,
      bodyHash: bodyHash(rawBody),
    };
  }
}
