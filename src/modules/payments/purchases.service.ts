import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { InvalidRequestError, RateLimitedError, ServiceUnavailableError } from '../../errors/app-error';
import type { PlayerContext } from '../../http/account-auth';
import { IdempotencyService } from '../idempotency';
import { RateLimiter } from '../rate-limits';
import { millsToUsd, WalletFrozenError, WalletService } from '../wallet';
import { CoinPack, coinPacksOf } from './coin-packs';
import { CHECKOUT_BUDGET_MS, Checkout, CheckoutRequest, PAYMENT_PROVIDER, PaymentProvider } from './payment-provider';
import { PurchaseRecord, PurchaseRepository, PurchaseStatus } from './purchase.repository';

export interface PurchaseView {
  purchaseId: string;
  packId: string;
  coins: number;
  priceUsd: string;
  status: PurchaseStatus;
  /** Null while the checkout is opening at the provider, and when it could not be opened. */
  checkoutUrl: string | null;
  unrecoveredCoins: number;
  /** Refunded so far, a money string ("0" before any refund, CONTRACT §19.1). */
  refundedUsd: string;
  createdAt: Date;
}

/** At most this many purchases are listed (newest first). */
export const PURCHASES_LISTED = 100;

export function purchaseView(p: PurchaseRecord): PurchaseView {
  return {
    purchaseId: p.id,
    packId: p.packId,
    coins: p.coins,
    priceUsd: millsToUsd(p.priceMills),
    status: p.status,
    checkoutUrl: p.checkoutUrl,
    unrecoveredCoins: p.unrecoveredCoins,
    refundedUsd: millsToUsd(p.refundedCents * 10),
    createdAt: p.createdAt,
  };
}

/** Pending purchases a player may have at once (CONTRACT §19.1). */
export const PENDING_PURCHASES_PER_PLAYER = 5;

/** The Retry-After of a 429 for pending purchases: no timer ends one, the player's payment or the provider's expiry does. */
const PENDING_RETRY_AFTER_MS = 60_000;

/**
 * Buying a pack (CONTRACT §19, §19.1): once per idempotency key of the caller (§7), a pending
 * purchase is recorded and committed, then its checkout is opened at the provider outside any
 * transaction (the purchase id is the provider's idempotency key, CHECKOUT_BUDGET_MS the budget),
 * then its address is stored in a short second transaction. A provider that fails or is too slow
 * fails the purchase (503). A repeat of a key answers the purchase as it is now (`checkoutUrl`
 * null while its checkout is opening), without a second checkout.
 */
@Injectable()
export class PurchasesService {
  readonly packs: CoinPack[];
  private readonly logger = new Logger('Purchases');

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly limits: RateLimiter,
    private readonly wallets: WalletService,
    private readonly purchases: PurchaseRepository,
  ) {
    this.packs = coinPacksOf(config.coinPacks);
  }

  /**
   * Order of checks (CONTRACT §16.17): the pack (400); the key (a repeat answers 200 at once, another
   * pack under the same key 409); the frozen wallet (403); the limits (429: pending purchases, then
   * new purchases per player); then the checkout (503). The freeze is read with the wallet row
   * locked, by the first transaction and again by the second: a freeze that answered before either
   * refuses the purchase (§19.1 freeze order).
   */
  async create(player: PlayerContext, body: { packId: string; idempotencyKey: string }): Promise<{ statusCode: number; purchase: PurchaseView }> {
    const pack = this.packs.find((p) => p.packId === body.packId);
    if (!pack) {
      const words = `Pack: no pack “${body.packId}” is on sale; use ${this.packs.map((p) => `“${p.packId}”`).join(', ')} (see GET /api/shop/packs).`;
      throw new InvalidRequestError(words, [{ field: 'packId', problems: [words] }]);
    }
    const walletId = player.walletId;
    const request = { caller: `account:${player.accountId}` as const, key: body.idempotencyKey, fingerprint: this.idempotency.fingerprint('purchase', '', body) };
    // Drawn once, outside the transaction: a deadlock retry re-runs it with the same id.
    const purchaseId = randomUUID();
    const recorded = await this.uow.run(() =>
      this.idempotency.execute(request, 201, async () => {
        if (await this.wallets.isFrozenLocked(walletId)) throw new WalletFrozenError();
        // The wallet row lock makes a player's purchases take turns: the count is exact.
        if ((await this.purchases.pendingCount(player.accountId)) >= PENDING_PURCHASES_PER_PLAYER) throw new RateLimitedError(PENDING_RETRY_AFTER_MS);
        await this.limits.consume({ throttler: 'purchases-per-player', tracker: player.playerId });
        await this.purchases.insert({ id: purchaseId, accountId: player.accountId, walletId, packId: pack.packId, coins: pack.coins, priceMills: pack.priceMills, provider: this.provider.name });
        return { purchaseId, replayed: false };
      }),
    );
    if (recorded.replayed) return { statusCode: 200, purchase: purchaseView((await this.purchases.byId(recorded.body.purchaseId))!) };

    let checkout: Checkout;
    try {
      checkout = await this.openCheckout({ purchaseId, coins: pack.coins, priceMills: pack.priceMills });
    } catch (error) {
      await this.purchases.failOpening(purchaseId);
      this.logger.warn({ purchaseId, provider: this.provider.name, reason: error instanceof Error ? error.message : String(error) }, 'Checkout not opened; the purchase failed');
      throw new ServiceUnavailableError('The payment provider did not open a checkout in time; the purchase failed. Buy again with a new idempotency key.');
    }
    const opened = await this.uow.run(async () => {
      await this.purchases.lock(purchaseId);
      if (await this.wallets.isFrozenLocked(walletId)) {
        await this.purchases.failOpening(purchaseId);
        return false;
      }
      await this.purchases.storeCheckout(purchaseId, checkout);
      return true;
    });
    if (!opened) throw new WalletFrozenError();
    return { statusCode: 201, purchase: purchaseView((await this.purchases.byId(purchaseId))!) };
  }

  /** The provider's answer within CHECKOUT_BUDGET_MS, or a rejection at the end of it. */
  private openCheckout(request: CheckoutRequest): Promise<Checkout> {
    const signal = AbortSignal.timeout(CHECKOUT_BUDGET_MS);
    const budgetSpent = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`no answer within ${CHECKOUT_BUDGET_MS} ms`)), { once: true }));
    return Promise.race([this.provider.createCheckout(request, signal), budgetSpent]);
  }

  async list(accountId: string): Promise<{ purchases: PurchaseView[] }> {
    return { purchases: (await this.purchases.ofAccount(accountId, PURCHASES_LISTED)).map(purchaseView) };
  }

  /** The caller's own purchase; undefined for unknown ids and anyone else's, admins included. */
  async ownPurchase(accountId: string, purchaseId: string): Promise<PurchaseRecord | undefined> {
    const purchase = await this.purchases.byId(purchaseId);
    return purchase && purchase.accountId === accountId ? purchase : undefined;
  }
}
