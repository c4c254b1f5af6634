import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout } from 'node:timers/promises';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { bodyHash, centsField, currencyField, eventObject, parseJson, stringField } from './payment-event.parse';
import { Checkout, CheckoutRequest, PaymentEvent, PaymentEventKind, PaymentProvider } from './payment-provider';
import { verifySandboxSignature } from './sandbox-signature';

const SETTING = 'payment_webhook_secret';

const KINDS: Record<string, PaymentEventKind> = {
  'payment.succeeded': 'payment_succeeded',
  'payment.failed': 'payment_failed',
  'payment.refunded': 'refund',
  'payment.disputed': 'dispute',
  'payment.dispute_won': 'dispute_won',
  'payment.dispute_lost': 'dispute_lost',
};

/** The sandbox's event types (CONTRACT §19). */
export const SANDBOX_EVENT_TYPES = Object.keys(KINDS);

/**
 * The sandbox provider (CONTRACT §19): the checkout is this service's own card page
 * (`/checkout/{purchaseId}`), whose outcome comes back as a signed event through the webhook like
 * any provider's. The signing key is PAYMENT_WEBHOOK_SECRET, else one generated on first start and
 * kept in app_settings (instances starting together agree: the first insert wins).
 */
@Injectable()
export class SandboxPaymentProvider implements PaymentProvider, OnModuleInit {
  readonly name = 'sandbox' as const;
  readonly livemode = null;
  private secret: string | undefined;

  constructor(@Inject(CONFIG) private readonly config: Config, private readonly uow: UnitOfWork) {}

  async onModuleInit(): Promise<void> {
    if (this.config.payments.provider !== 'sandbox') return;
    if (this.config.nodeEnv === 'production') {
      new Logger('Payments').warn('PAYMENT_PROVIDER=sandbox in production: coins are sold for the test card 4242 4242 4242 4242, no money is taken');
    }
    if (this.config.payments.webhookSecret) {
      this.secret = this.config.payments.webhookSecret;
      if (this.secret.length < 16) new Logger('Payments').warn('PAYMENT_WEBHOOK_SECRET is shorter than 16 characters: a short key is easier to guess');
      return;
    }
    await this.uow.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [SETTING, randomBytes(32).toString('hex')]);
    const row = await this.uow.one<{ value: string }>('SELECT value FROM app_settings WHERE key = $1', [SETTING]);
    this.secret = row!.value;
  }

  /** The signing key, for the sandbox's own deliveries (never logged, never answered). */
  get signingSecret(): string {
    if (!this.secret) throw new Error('SandboxPaymentProvider used before start-up finished.');
    return this.secret;
  }

  /** SANDBOX_PROVIDER_DELAY_MS makes it slow, each checkout on its own timer (in parallel, never queued). */
  async createCheckout(request: CheckoutRequest, signal: AbortSignal): Promise<Checkout> {
    const delay = this.config.payments.sandboxProviderDelayMs;
    if (delay > 0) await setTimeout(delay, undefined, { signal });
    return { url: `/checkout/${request.purchaseId}`, ref: null };
  }

  verifyEvent(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent {
    verifySandboxSignature(rawBody, headers['sandbox-signature'], this.signingSecret);
    const event = eventObject(parseJson(rawBody));
    return {
      id: event.id,
      type: event.type,
      kind: KINDS[event.type] ?? 'other',
      purchaseRef: stringField(event, 'purchaseId'),
      checkoutRef: null,
      paymentRef: null,
      objectRef: null,
      amountCents: centsField(event, 'amountCents'),
      refundedTotalCents: null,
      currency: currencyField(event, 'currency'),
      livemode: null,
      bodyHash: bodyHash(rawBody),
    };
  }
}
