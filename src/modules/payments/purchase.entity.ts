import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn, Unique, UpdateDateColumn } from 'typeorm';
import type { PaymentProviderName } from './payment-provider';
import type { PurchaseStatus } from './purchase.repository';

/**
 * A purchase of a coin pack (CONTRACT §19). Triggers in the migration keep it moving only forward
 * in its life (purchases_status_forward: pending → paid | failed, failed → paid, paid → refunded |
 * disputed, refunded → disputed, refunded → paid when a refund failed, disputed → where it was when
 * the dispute is won; what was bought never changes) and refuse DELETE and TRUNCATE.
 * Its coins are credited by the ledger entry that names it (at most one, ledger_entries_purchase_credit_key).
 */
@Entity('purchases')
@Unique('purchases_checkout_ref_key', ['provider', 'checkoutRef'])
@Unique('purchases_payment_ref_key', ['provider', 'paymentRef'])
@Check('purchases_coins_range', 'coins BETWEEN 1 AND 100000')
@Check('purchases_price', 'price_mills = coins * 250')
@Check('purchases_provider', "provider IN ('sandbox', 'stripe')")
@Check('purchases_status', "status IN ('pending', 'paid', 'failed', 'refunded', 'disputed')")
@Check('purchases_unrecovered_range', 'unrecovered_coins BETWEEN 0 AND coins')
@Check('purchases_unrecovered_after_take_back', 'unrecovered_coins = 0 OR refunded_cents > 0 OR disputed_from IS NOT NULL')
@Check('purchases_refunded_range', 'refunded_cents BETWEEN 0 AND coins * 25')
@Check(
  'purchases_refunded_status',
  "CASE status WHEN 'refunded' THEN refunded_cents = coins * 25 WHEN 'paid' THEN refunded_cents < coins * 25 WHEN 'disputed' THEN true ELSE refunded_cents = 0 END",
)
@Check('purchases_disputed_from', "disputed_from IN ('paid', 'refunded')")
@Check('purchases_dispute_outcome', "dispute_outcome IN ('won', 'lost')")
@Check(
  'purchases_dispute_state',
  "(status = 'disputed') = (disputed_from IS NOT NULL AND dispute_outcome IS DISTINCT FROM 'won') AND (disputed_from IS NOT NULL OR (dispute_outcome IS NULL AND dispute_taken_coins = 0 AND dispute_unrecovered_coins = 0))",
)
@Check('purchases_dispute_coins', 'dispute_taken_coins >= 0 AND dispute_unrecovered_coins BETWEEN 0 AND unrecovered_coins')
// (account_id, created_at DESC, id DESC): TypeORM compares name and columns, not their order.
@Index('purchases_account_idx', ['accountId', 'createdAt', 'id'])
export class Purchase {
  /** Chosen by the service before the checkout is created (the provider is told it). */
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'purchases_pkey' })
  id!: string;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'purchases_account_id_fkey' })
  accountId!: string;

  @Column('uuid', { name: 'wallet_id' })
  @ForeignKey('wallets', { name: 'purchases_wallet_id_fkey' })
  walletId!: string;

  @Column('text', { name: 'pack_id' })
  packId!: string;

  @Column('integer')
  coins!: number;

  /** bigint: read as a string. */
  @Column('bigint', { name: 'price_mills' })
  priceMills!: string;

  @Column('text')
  provider!: PaymentProviderName;

  /** Null while the checkout is opening at the provider, and when it could not be opened (CONTRACT §19.1). */
  @Column('text', { name: 'checkout_url', nullable: true })
  checkoutUrl!: string | null;

  /** The provider's checkout (Stripe: Checkout Session id). */
  @Column('text', { name: 'provider_checkout_ref', nullable: true })
  checkoutRef!: string | null;

  /** The provider's payment (Stripe: PaymentIntent id), learnt when it is paid. */
  @Column('text', { name: 'provider_payment_ref', nullable: true })
  paymentRef!: string | null;

  @Column('text', { default: 'pending' })
  status!: PurchaseStatus;

  @Column('integer', { name: 'unrecovered_coins', default: 0 })
  unrecoveredCoins!: number;

  /** Refunded so far, in cents (CONTRACT §19.1 partial refunds): the status is `refunded` exactly when it reaches the price. */
  @Column('integer', { name: 'refunded_cents', default: 0 })
  refundedCents!: number;

  /** Where the purchase was when its dispute landed (one dispute per purchase); null while none did. */
  @Column('text', { name: 'disputed_from', nullable: true })
  disputedFrom!: 'paid' | 'refunded' | null;

  @Column('text', { name: 'dispute_outcome', nullable: true })
  disputeOutcome!: 'won' | 'lost' | null;

  /** Coins the dispute took back, credited again when it is won. */
  @Column('integer', { name: 'dispute_taken_coins', default: 0 })
  disputeTakenCoins!: number;

  /** The dispute's share of unrecoveredCoins, cleared when it is won. */
  @Column('integer', { name: 'dispute_unrecovered_coins', default: 0 })
  disputeUnrecoveredCoins!: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}
