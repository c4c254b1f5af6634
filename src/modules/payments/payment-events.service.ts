import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { WalletService } from '../wallet';
import { priceCents } from './coin-packs';
import { PaymentEventOutcome, PaymentEventRepository } from './payment-event.repository';
import { moneyMismatch, refundCoins, refundedAfterRefund, refundedAfterReversal } from './payment-money';
import { PAYMENT_PROVIDER, PaymentEvent, PaymentProvider } from './payment-provider';
import { UnknownPaymentProviderError } from './payments.errors';
import { PurchaseRecord, PurchaseRepository } from './purchase.repository';

/**
 * Applies verified provider events to purchases and wallets, exactly once each (CONTRACT §19,
 * §19.1), the same for every provider: the sandbox's own page delivers its outcome through here
 * too. In one transaction: record the event id and what the provider said (a duplicate, or the id
 * again with another body, stops here), lock the purchase, move it forward in its life and the
 * money with it, note what the event did, then apply what was kept for the purchase.
 *
 * Life order, not arrival order: pending → paid | failed; failed → paid; paid → refunded (refunds
 * reach the price) | disputed; refunded → disputed (freezes, takes nothing more); refunded → paid
 * (a refund failed); disputed → where it was (won). A refund or dispute before the payment, and a
 * dispute outcome before its dispute, is kept and applied once it can be; any other event that
 * does not move the purchase forward changes nothing. An event whose amount, currency or mode
 * does not match moves nothing and is recorded as such.
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
      result.outcome === 'duplicate' ? 'Payment event already applied'
        : result.outcome === 'conflict' ? 'Payment event id seen again with another body: nothing changed' : `Payment event ${result.outcome}`,
    );
    return { received: true };
  }

  private async apply(event: PaymentEvent): Promise<{ outcome: PaymentEventOutcome | 'duplicate' | 'conflict'; purchaseId: string | null }> {
    const provider = this.provider.name;
    const claim = await this.events.claim(provider, event);
    if (claim !== 'claimed') return { outcome: claim, purchaseId: null };
    if (event.paymentRef) await this.events.lockPaymentRef(provider, event.paymentRef);
    const purchase = await this.purchases.lockForEvent(provider, event);
    if (!purchase) {
      await this.events.settle(provider, event.id, 'unknown_purchase', null);
      return { outcome: 'unknown_purchase', purchaseId: null };
    }
    const outcome = await this.move(purchase, event);
    await this.events.settle(provider, event.id, outcome, purchase.id);
    if (outcome === 'applied') await this.applyKept(purchase.id, event.paymentRef);
    return { outcome, purchaseId: purchase.id };
  }

  /** The one state machine: what an event does to a locked purchase, given where it is in its life. */
  private async move(purchase: PurchaseRecord, event: PaymentEvent): Promise<PaymentEventOutcome> {
    const { status } = purchase;
    if (event.kind === 'other') return 'ignored';
    const mismatch = moneyMismatch(event, purchase, this.provider.livemode);
    if (mismatch) return mismatch;
    const notPaidYet = status === 'pending' || status === 'failed';
    switch (event.kind) {
      case 'payment_succeeded':
        if (!notPaidYet) return 'ignored';
        await this.wallets.creditPurchase(purchase.walletId, purchase.id, purchase.coins);
        await this.purchases.update(purchase.id, { status: 'paid', paymentRef: event.paymentRef });
        return 'applied';
      case 'payment_failed':
        if (status !== 'pending') return 'ignored';
        await this.purchases.update(purchase.id, { status: 'failed' });
        return 'applied';
      case 'refund':
        if (notPaidYet) return 'deferred';
        if (status !== 'paid') return 'ignored';
        return this.refund(purchase, refundedAfterRefund(purchase, event));
      case 'refund_reversal':
        if (notPaidYet) return 'deferred';
        if (status !== 'paid' && status !== 'refunded') return 'ignored';
        if (event.objectRef && (await this.events.refundGivenBack(this.provider.name, event.objectRef))) return 'ignored';
        return this.refund(purchase, refundedAfterReversal(purchase.refundedCents, event.amountCents));
      case 'dispute':
        if (notPaidYet) return 'deferred';
        if (purchase.disputedFrom) return 'ignored';
        await this.dispute(purchase);
        return 'applied';
      case 'dispute_won':
      case 'dispute_lost':
        if (!purchase.disputedFrom) return 'deferred';
        if (purchase.disputeOutcome) return 'ignored';
        await this.closeDispute(purchase, event.kind === 'dispute_won' ? 'won' : 'lost');
        return 'applied';
    }
  }

  /** Applies, in their order, what was kept for the purchase until it could take it. */
  private async applyKept(purchaseId: string, paymentRef: string | null): Promise<void> {
    const provider = this.provider.name;
    let purchase = (await this.purchases.byId(purchaseId))!;
    for (const kept of await this.events.kept(provider, purchaseId, purchase.paymentRef ?? paymentRef)) {
      const outcome = await this.move(purchase, kept);
      if (outcome !== 'deferred' || kept.unresolved) await this.events.settle(provider, kept.id, outcome, purchaseId);
      // The next kept event moves the purchase from where this one left it.
      if (outcome === 'applied') purchase = (await this.purchases.byId(purchaseId))!;
    }
  }

  /**
   * Moves the refunded total of a paid (or refunded) purchase to `refunded` cents: the coins refunds
   * take back follow the total (CONTRACT §19.1), never below a balance of 0; a lower total (a refund
   * that failed) gives coins back, first forgiving those that could not be taken.
   */
  private async refund(purchase: PurchaseRecord, refunded: number): Promise<PaymentEventOutcome> {
    if (refunded === purchase.refundedCents) return 'ignored';
    const owed = refundCoins(purchase.coins, refunded) - refundCoins(purchase.coins, purchase.refundedCents);
    let unrecovered = purchase.unrecoveredCoins;
    if (owed > 0) {
      const { taken } = await this.wallets.takeBackPurchase(purchase.walletId, purchase.id, owed, 'Purchase refunded');
      unrecovered += owed - taken;
    } else if (owed < 0) {
      const forgiven = Math.min(-owed, purchase.unrecoveredCoins - purchase.disputeUnrecoveredCoins);
      const back = -owed - forgiven;
      if (back > 0) await this.wallets.returnPurchaseCoins(purchase.walletId, purchase.id, back, 'refund_reversal', 'A refund failed: coins returned');
      unrecovered -= forgiven;
    }
    const status = refunded === priceCents(purchase) ? 'refunded' : 'paid';
    await this.purchases.update(purchase.id, { status, refundedCents: refunded, unrecoveredCoins: unrecovered });
    return 'applied';
  }

  /** A dispute takes back what refunds have not (nothing of a refunded purchase), never below 0, and freezes the wallet. */
  private async dispute(purchase: PurchaseRecord): Promise<void> {
    const claimed = purchase.coins - refundCoins(purchase.coins, purchase.refundedCents);
    const { taken } = await this.wallets.takeBackPurchase(purchase.walletId, purchase.id, claimed, 'Purchase disputed');
    await this.purchases.update(purchase.id, {
      status: 'disputed',
      disputedFrom: purchase.status === 'refunded' ? 'refunded' : 'paid',
      disputeTakenCoins: taken,
      disputeUnrecoveredCoins: claimed - taken,
      unrecoveredCoins: purchase.unrecoveredCoins + claimed - taken,
    });
    await this.wallets.freeze(purchase.walletId);
  }

  /** Won: what the dispute took comes back and its unrecovered share is cleared; the wallet stays frozen. Lost: it stays disputed. */
  private async closeDispute(purchase: PurchaseRecord, outcome: 'won' | 'lost'): Promise<void> {
    if (outcome === 'lost') {
      await this.purchases.update(purchase.id, { status: 'disputed', disputeOutcome: 'lost' });
      return;
    }
    if (purchase.disputeTakenCoins > 0) {
      await this.wallets.returnPurchaseCoins(purchase.walletId, purchase.id, purchase.disputeTakenCoins, 'dispute_won', 'Dispute won: coins returned');
    }
    await this.purchases.update(purchase.id, {
      status: purchase.disputedFrom!,
      disputeOutcome: 'won',
      unrecoveredCoins: purchase.unrecoveredCoins - purchase.disputeUnrecoveredCoins,
      disputeUnrecoveredCoins: 0,
    });
  }
}
