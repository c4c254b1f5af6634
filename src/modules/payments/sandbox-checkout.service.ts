import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { InvalidRequestError } from '../../errors/app-error';
import { PaymentEventsService } from './payment-events.service';
import { PurchaseNotFoundError } from './payments.errors';
import { PurchasesService, purchaseView, PurchaseView } from './purchases.service';
import { SandboxPaymentProvider } from './sandbox-payment.provider';
import { signSandboxEvent } from './sandbox-signature';

/** The sandbox's test cards (CONTRACT §19). */
export const SANDBOX_CARDS: Record<string, 'payment.succeeded' | 'payment.failed'> = {
  '4242424242424242': 'payment.succeeded',
  '4000000000000002': 'payment.failed',
};

/**
 * The sandbox's card form: a test card's outcome becomes a signed event, delivered through the
 * same verification and handling as a real provider's webhook. Any other number is refused and
 * changes nothing. A purchase already paid, or whose checkout is not open, sends nothing.
 */
@Injectable()
export class SandboxCheckoutService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly sandbox: SandboxPaymentProvider,
    private readonly purchases: PurchasesService,
    private readonly events: PaymentEventsService,
  ) {}

  async pay(accountId: string, purchaseId: string, cardNumber: string): Promise<PurchaseView> {
    if (this.config.payments.provider !== 'sandbox') throw new PurchaseNotFoundError();
    const type = SANDBOX_CARDS[cardNumber.replace(/ /g, '')];
    if (!type) {
      throw new InvalidRequestError('This card is not accepted: the sandbox takes 4242 4242 4242 4242 (pays) and 4000 0000 0000 0002 (declined).', [
        { field: 'cardNumber', problems: ['Card number: use a sandbox test card, 4242 4242 4242 4242 or 4000 0000 0000 0002.'] },
      ]);
    }
    const purchase = await this.purchases.ownPurchase(accountId, purchaseId);
    if (!purchase) throw new PurchaseNotFoundError();
    // No checkout address: it is still opening, or was never opened (CONTRACT §19.1), so there is nothing to pay yet.
    const opened = purchase.checkoutUrl !== null;
    const moves = opened && (purchase.status === 'pending' || (purchase.status === 'failed' && type === 'payment.succeeded'));
    if (moves) {
      const created = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ id: `evt_sandbox_${randomUUID()}`, type, purchaseId: purchase.id, created });
      await this.events.receive('sandbox', Buffer.from(body, 'utf8'), { 'sandbox-signature': signSandboxEvent(this.sandbox.signingSecret, body, created) });
    }
    return purchaseView((await this.purchases.ownPurchase(accountId, purchaseId))!);
  }
}
