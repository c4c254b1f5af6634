import { Inject, Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { CONFIG, Config } from '../../config';
import { MILLS_PER_CENT } from './payouts.rules';

/**
 * What became of a transfer: `sent` (Stripe made it: the payout is paid, its reference the
 * transfer id), `refused` (Stripe answered that it will not make it: the payout fails and its
 * amount goes back), or `unknown` (no answer, a 5xx, a rate limit, our own key refused: the payout
 * stays pending and the next run asks again with the same idempotency key).
 */
export type TransferOutcome = { kind: 'sent'; transferId: string } | { kind: 'refused'; reason: string } | { kind: 'unknown'; reason: string };

export interface TransferRequest {
  payoutId: string;
  amountMills: number;
  accountId: string;
}

/** Transfers in flight at once (Stripe's rate limit is per account; a big run must not open hundreds of requests). */
const IN_FLIGHT = 4;

/** How long one call to Stripe may take (a run answers within CONTRACT §16.29's 10 s; a transfer still unknown then is asked again by the next run). */
export const TRANSFER_TIMEOUT_MS = 4000;

/**
 * Stripe Connect transfers through the official `stripe` package (CONTRACT §22), with the app's
 * Stripe configuration (STRIPE_SECRET_KEY; STRIPE_API_URL → host, port and protocol, as the
 * payments module's provider does), whatever PAYMENT_PROVIDER sells coins with.
 *
 * A transfer is `{ amount: cents, currency: 'usd', destination: accountId, transfer_group: payoutId }`
 * sent with the payout id as Stripe's idempotency key, so a retry can never pay twice while Stripe
 * keeps the key (24 hours); a retry first looks the transfer up by its transfer_group, so a later
 * one finds the transfer made before instead of making another.
 */
@Injectable()
export class StripeTransfers {
  private readonly logger = new Logger('StripeTransfers');
  private readonly stripe: Stripe | null;

  constructor(@Inject(CONFIG) config: Config) {
    const { stripeSecretKey, stripeApiUrl } = config.payments;
    const api = stripeApiUrl ? new URL(stripeApiUrl) : undefined;
    this.stripe = stripeSecretKey
      ? new Stripe(stripeSecretKey, {
          timeout: TRANSFER_TIMEOUT_MS,
          maxNetworkRetries: 0,
          telemetry: false,
          ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
        })
      : null;
  }

  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  get configured(): boolean {
    return this.stripe !== null;
  }

  /** One transfer, at most IN_FLIGHT at once (the others wait their turn). */
  async transfer(request: TransferRequest, options: { lookUpFirst: boolean }): Promise<TransferOutcome> {
    // A finished transfer hands its slot to the next in line, so never more than IN_FLIGHT run at once.
    if (this.inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    try {
      return await this.send(request, options);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    }
  }

  private async send(request: TransferRequest, options: { lookUpFirst: boolean }): Promise<TransferOutcome> {
    if (!this.stripe) return { kind: 'unknown', reason: 'STRIPE_SECRET_KEY is not set: no transfer can be made' };
    if (request.amountMills % MILLS_PER_CENT !== 0) throw new Error(`Payout ${request.payoutId}: ${request.amountMills} mills is not whole cents.`);
    try {
      if (options.lookUpFirst) {
        const found = await this.stripe.transfers.list({ transfer_group: request.payoutId, limit: 1 });
        const made = found.data[0];
        if (made) return { kind: 'sent', transferId: made.id };
      }
      const transfer = await this.stripe.transfers.create(
        {
          amount: request.amountMills / MILLS_PER_CENT,
          currency: 'usd',
          destination: request.accountId,
          transfer_group: request.payoutId,
          metadata: { payoutId: request.payoutId },
        },
        { idempotencyKey: request.payoutId },
      );
      return { kind: 'sent', transferId: transfer.id };
    } catch (error) {
      const outcome = outcomeOf(error);
      this.logger.warn({ payoutId: request.payoutId, outcome: outcome.kind, reason: outcome.kind === 'sent' ? undefined : outcome.reason }, 'Stripe transfer not made');
      return outcome;
    }
  }
}

/**
 * Stripe's refusals of the request itself (400/404 invalid request: no such destination, an
 * account that cannot receive transfers, the platform's balance too low; 402; 403 permission) are
 * definitive: the same request would be refused again. Everything else may have been made or may
 * be made on a retry: unknown.
 */
export function outcomeOf(error: unknown): TransferOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Stripe.errors.StripeIdempotencyError) return { kind: 'unknown', reason: message };
  if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripePermissionError) {
    return { kind: 'refused', reason: `Stripe refused the transfer: ${message}`.slice(0, 200) };
  }
  return { kind: 'unknown', reason: message };
}
