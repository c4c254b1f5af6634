import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { InvalidRequestError } from '../../errors/app-error';
import type { PlayerContext } from '../../http/account-auth';
import { IdempotencyService } from '../idempotency';
import { millsToUsd } from '../wallet';
import { WalletService } from '../wallet';
import { CoinPack, coinPacksOf } from './coin-packs';
import { PAYMENT_PROVIDER, PaymentProvider } from './payment-provider';
import { PurchaseRecord, PurchaseRepository, PurchaseStatus } from './purchase.repository';

export interface PurchaseView {
  purchaseId: string;
  packId: string;
  coins: number;
  priceUsd: string;
  status: PurchaseStatus;
  checkoutUrl: string;
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

/**
 * Buying a pack (CONTRACT §19): a pending purchase and its checkout, once per idempotency key of
 * the caller (§7). A repeat of a key answers the purchase as it is now, without a second checkout.
 */
@Injectable()
export class PurchasesService {
  readonly packs: CoinPack[];

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly wallets: WalletService,
    private readonly purchases: PurchaseRepository,
  ) {
    this.packs = coinPacksOf(config.coinPacks);
  }

  /**
   * Order of checks (CONTRACT §16.17): the pack (400); the key (a repeat answers 200 at once, another
   * pack under the same key 409); the frozen wallet (403); then the checkout.
   */
  async create(player: PlayerContext, body: { packId: string; idempotencyKey: string }): Promise<{ statusCode: number; purchase: PurchaseView }> {
    const pack = this.packs.find((p) => p.packId === body.packId);
    if (!pack) {
      throw new InvalidRequestError(`packId: no pack "${body.packId}" is on sale (see GET /api/shop/packs).`, [
        { field: 'packId', problems: [`not a pack on sale: ${this.packs.map((p) => p.packId).join(', ')}`] },
      ]);
    }
    const walletId = player.walletId;
    const request = { caller: `account:${player.accountId}` as const, key: body.idempotencyKey, fingerprint: this.idempotency.fingerprint('purchase', '', body) };
    return this.uow.run(async () => {
      const result = await this.idempotency.execute(request, 201, async () => {
        await this.wallets.assertNotFrozen(walletId);
        const purchaseId = randomUUID();
        const checkout = await this.provider.createCheckout({ purchaseId, coins: pack.coins, priceMills: pack.priceMills });
        await this.purchases.insert({
          id: purchaseId,
          accountId: player.accountId,
          walletId,
          packId: pack.packId,
          coins: pack.coins,
          priceMills: pack.priceMills,
          provider: this.provider.name,
          checkoutUrl: checkout.url,
          checkoutRef: checkout.ref,
        });
        return { purchaseId, replayed: false };
      });
      const purchase = await this.purchases.byId(result.body.purchaseId);
      return { statusCode: result.statusCode, purchase: purchaseView(purchase!) };
    });
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
