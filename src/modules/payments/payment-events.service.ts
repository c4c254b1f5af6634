import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { WalletService } from '../wallet';
import { PaymentEventOutcome, PaymentEventRepository } from './payment-event.repository';
import { PAYMENT_PROVIDER, PaymentEvent, PaymentProvider } from './payment-provider';
import { UnknownPaymentProviderError } from './payments.errors';
import { PurchaseRecord, PurchaseRepository } from './purchase.repository';

/**
 * Applies verified provider events to purchases and wallets, exactly once each (CONTRACT §19), the
 * same for every provider: the sandbox's own page delivers its outcome through here too. In one
 * transaction: record the event id (a duplicate stops here), lock the purchase, move it forward
 * in its life and the money with it, note what the event did.
 *
 * Life order, not arrival order: pending → paid | failed; failed → paid; paid → refunded |
 * disputed; refunded → disputed (freezes, takes nothing more). A refund or dispute before the
 * payment is kept and applied right after the payment lands; any other event that does not move
 * the purchase forward changes nothing.
 */
@Injectable()
export class PaymentEventsService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly events: PaymentEventRepository,
    private readonly purchases: PurchaseRepository,
    private readonly wallets: WalletService,
  ) {}

  /** A webhook delivery: 404 for a provider not in use, 400 for a bad signature or body, else applied at most once. */
  async receive(providerName: string, rawBody: Buffer, headers: IncomingHttpHeaders): Promise<{ received: true }> {
    if (providerName !== this.provider.name) throw new UnknownPaymentProviderError();
    const event = this.provider.verifyEvent(rawBody, headers);
    const result = await this.uow.run(() => this.apply(event));
    // After the commit: what happened to the money (never the body or a signature).
    this.logger.log(
      { provider: this.provider.name, eventId: event.id, type: event.type, ...result },
      result.outcome === 'duplicate' ? 'Payment event already applied' : `Payment event ${result.outcome}`,
    );
    return { received: true };
  }

  private async apply(event: PaymentEvent): Promise<{ outcome: PaymentEventOutcome | 'duplicate'; purchaseId: string | null }> {
    const provider = this.provider.name;
    if (!(await this.events.claim(provider, event))) return { outcome: 'duplicate', purchaseId: null };
    if (event.paymentRef) await this.events.lockPaymentRef(provider, event.paymentRef);
    const purchase = await this.purchases.lockForEvent(provider, event);
    if (!purchase) {
      await this.events.settle(provider, event.id, 'unknown_purchase', null);
      return { outcome: 'unknown_purchase', purchaseId: null };
    }
    const outcome = await this.move(purchase, event);
    await this.events.settle(provider, event.id, outcome, purchase.id);
    return { outcome, purchaseId: purchase.id };
  }

  private async move(purchase: PurchaseRecord, event: PaymentEvent): Promise<PaymentEventOutcome> {
    const { status } = purchase;
    switch (event.kind) {
      case 'payment_succeeded':
        if (status !== 'pending' && status !== 'failed') return 'ignored';
        await this.pay(purchase, event.paymentRef);
        return 'applied';
      case 'payment_failed':
        if (status !== 'pending') return 'ignored';
        await this.purchases.update(purchase.id, { status: 'failed' });
        return 'applied';
      case 'refund':
        if (status === 'pending' || status === 'failed') return 'deferred';
        if (status !== 'paid') return 'ignored';
        await this.takeBack(purchase, 'refunded');
        return 'applied';
      case 'dispute':
        if (status === 'pending' || status === 'failed') return 'deferred';
        if (status === 'disputed') return 'ignored';
        if (status === 'paid') await this.takeBack(purchase, 'disputed');
        else await this.purchases.update(purchase.id, { status: 'disputed' });
        await this.wallets.freeze(purchase.walletId);
        return 'applied';
      default:
        return 'ignored';
    }
  }

  /** Credits the coins once (the ledger refuses a second purchase entry), then whatever was kept for the payment. */
  private async pay(purchase: PurchaseRecord, paymentRef: string | null): Promise<void> {
    await this.wallets.creditPurchase(purchase.walletId, purchase.id, purchase.coins);
    await this.purchases.update(purchase.id, { status: 'paid', paymentRef });
    const kept = await this.events.takeKept(this.provider.name, purchase.id, purchase.paymentRef ?? paymentRef);
    if (kept.length === 0) return;
    const disputed = kept.includes('dispute');
    await this.takeBack(purchase, disputed ? 'disputed' : 'refunded');
    if (disputed) await this.wallets.freeze(purchase.walletId);
  }

  /** The purchase's coins back from the wallet, never below 0; what could not be taken stays on the purchase. */
  private async takeBack(purchase: PurchaseRecord, status: 'refunded' | 'disputed'): Promise<void> {
    const { taken } = await this.wallets.takeBackPurchase(purchase.walletId, purchase.id, purchase.coins, status === 'refunded' ? 'Purchase refunded' : 'Purchase disputed');
    await this.purchases.update(purchase.id, { status, unrecoveredCoins: purchase.coins - taken });
  }
}
