import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { Metrics } from '../../observability/metrics';
import type { PaymentProviderName } from './payment-provider';

export type PurchaseStatus = 'pending' | 'paid' | 'failed' | 'refunded' | 'disputed';

export interface PurchaseRecord {
  id: string;
  accountId: string;
  walletId: string;
  packId: string;
  coins: number;
  priceMills: number;
  provider: PaymentProviderName;
  /** Null while the checkout is opening, and when it could not be opened (CONTRACT §19.1). */
  checkoutUrl: string | null;
  paymentRef: string | null;
  status: PurchaseStatus;
  unrecoveredCoins: number;
  /** Refunded so far (CONTRACT §19.1 partial refunds). */
  refundedCents: number;
  /** Where it was when its dispute landed; null while no dispute did (a purchase is disputed once). */
  disputedFrom: 'paid' | 'refunded' | null;
  disputeOutcome: 'won' | 'lost' | null;
  /** Coins the dispute took back, and its share of unrecoveredCoins: what a won dispute undoes. */
  disputeTakenCoins: number;
  disputeUnrecoveredCoins: number;
  createdAt: Date;
}

/** What an event changes on a locked purchase; fields left out stay as they are. */
export interface PurchaseChange {
  status: PurchaseStatus;
  unrecoveredCoins?: number;
  paymentRef?: string | null;
  refundedCents?: number;
  disputedFrom?: 'paid' | 'refunded';
  disputeOutcome?: 'won' | 'lost';
  disputeTakenCoins?: number;
  disputeUnrecoveredCoins?: number;
}

const COLUMNS = `id, account_id AS "accountId", wallet_id AS "walletId", pack_id AS "packId", coins, price_mills::float8 AS "priceMills",
  provider, checkout_url AS "checkoutUrl", provider_payment_ref AS "paymentRef", status, unrecovered_coins AS "unrecoveredCoins",
  refunded_cents AS "refundedCents", disputed_from AS "disputedFrom", dispute_outcome AS "disputeOutcome",
  dispute_taken_coins AS "disputeTakenCoins", dispute_unrecovered_coins AS "disputeUnrecoveredCoins", created_at AS "createdAt"`;

/** Purchases of coin packs. Rows are never deleted (a trigger refuses it) and move only forward in their life. */
@Injectable()
export class PurchaseRepository {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly metrics: Metrics,
  ) {}

  /** arcade_purchases_total: a purchase counted once for every status it enters, after the commit (CONTRACT §23). */
  private entered(status: PurchaseStatus): void {
    this.uow.afterCommit(() => this.metrics.purchases.inc({ status }));
  }

  /** Records a purchase whose checkout is yet to be opened (no checkout address). */
  async insert(p: { id: string; accountId: string; walletId: string; packId: string; coins: number; priceMills: number; provider: PaymentProviderName }): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query(
      `INSERT INTO purchases (id, account_id, wallet_id, pack_id, coins, price_mills, provider)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [p.id, p.accountId, p.walletId, p.packId, p.coins, p.priceMills, p.provider],
    );
    this.entered('pending');
  }

  /** How many of the account's purchases are `pending` (CONTRACT §19.1 purchase limits). */
  async pendingCount(accountId: string): Promise<number> {
    const row = await this.uow.one<{ n: number }>(`SELECT count(*)::int AS n FROM purchases WHERE account_id = $1 AND status = 'pending'`, [accountId]);
    return row!.n;
  }

  /** Locks the purchase until the transaction ends (before its wallet, the order events lock them in). */
  async lock(id: string): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query('SELECT id FROM purchases WHERE id = $1 FOR UPDATE', [id]);
  }

  /** The checkout the provider opened for the purchase. */
  async storeCheckout(id: string, checkout: { url: string; ref: string | null }): Promise<void> {
    await this.uow.query('UPDATE purchases SET checkout_url = $2, provider_checkout_ref = $3, updated_at = now() WHERE id = $1', [id, checkout.url, checkout.ref]);
  }

  /** A purchase whose checkout could not be opened fails (unless an event moved it on meanwhile). */
  async failOpening(id: string): Promise<void> {
    const failed = await this.uow.query(`UPDATE purchases SET status = 'failed', updated_at = now() WHERE id = $1 AND status = 'pending' RETURNING id`, [id]);
    if (failed.length > 0) this.entered('failed');
  }

  async byId(id: string): Promise<PurchaseRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return this.uow.one<PurchaseRecord>(`SELECT ${COLUMNS} FROM purchases WHERE id = $1`, [id]);
  }

  /** The account's latest purchases, newest first. */
  ofAccount(accountId: string, limit: number): Promise<PurchaseRecord[]> {
    return this.uow.query<PurchaseRecord>(`SELECT ${COLUMNS} FROM purchases WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [accountId, limit]);
  }

  /**
   * The purchase an event names, locked until the transaction ends, so that the events of one
   * purchase apply one after another: by its id, else by the provider's checkout, else by the
   * provider's payment.
   */
  async lockForEvent(provider: PaymentProviderName, refs: { purchaseRef: string | null; checkoutRef: string | null; paymentRef: string | null }): Promise<PurchaseRecord | undefined> {
    this.uow.requireTransaction();
    if (refs.purchaseRef && isUuid(refs.purchaseRef)) {
      const row = await this.uow.one<PurchaseRecord>(`SELECT ${COLUMNS} FROM purchases WHERE id = $1 AND provider = $2 FOR UPDATE`, [refs.purchaseRef, provider]);
      if (row) return row;
    }
    if (refs.checkoutRef) {
      const row = await this.uow.one<PurchaseRecord>(`SELECT ${COLUMNS} FROM purchases WHERE provider = $1 AND provider_checkout_ref = $2 FOR UPDATE`, [provider, refs.checkoutRef]);
      if (row) return row;
    }
    if (refs.paymentRef) {
      return this.uow.one<PurchaseRecord>(`SELECT ${COLUMNS} FROM purchases WHERE provider = $1 AND provider_payment_ref = $2 FOR UPDATE`, [provider, refs.paymentRef]);
    }
    return undefined;
  }

  /** Moves a locked purchase on (the trigger refuses a step it does not allow). */
  async update(id: string, change: PurchaseChange): Promise<void> {
    this.uow.requireTransaction();
    // The status before, read from the row this transaction has locked: a step into the same status is no new entry.
    const [row] = await this.uow.query<{ before: PurchaseStatus }>(
      `UPDATE purchases SET status = $2, unrecovered_coins = COALESCE($3, unrecovered_coins),
              provider_payment_ref = COALESCE(provider_payment_ref, $4), refunded_cents = COALESCE($5, refunded_cents),
              disputed_from = COALESCE($6, disputed_from), dispute_outcome = COALESCE($7, dispute_outcome),
              dispute_taken_coins = COALESCE($8, dispute_taken_coins), dispute_unrecovered_coins = COALESCE($9, dispute_unrecovered_coins),
              updated_at = now()
         FROM (SELECT status AS prior_status FROM purchases WHERE id = $1) prior
        WHERE id = $1
       RETURNING prior.prior_status AS before`,
      [
        id, change.status, change.unrecoveredCoins ?? null, change.paymentRef ?? null, change.refundedCents ?? null,
        change.disputedFrom ?? null, change.disputeOutcome ?? null, change.disputeTakenCoins ?? null, change.disputeUnrecoveredCoins ?? null,
      ],
    );
    if (row && row.before !== change.status) this.entered(change.status);
  }
}
