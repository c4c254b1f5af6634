import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { PaymentEventOutcome } from './payment-event.repository';
import type { PaymentEventKind, PaymentProviderName } from './payment-provider';

/**
 * A verified payment-provider event, recorded once per (provider, event id) in the transaction that
 * applies it: the primary key is what makes each event apply at most once (CONTRACT §19).
 */
@Entity('payment_events')
@Check('payment_events_provider', "provider IN ('sandbox', 'stripe')")
@Check('payment_events_event_id_length', 'char_length(event_id) BETWEEN 1 AND 255')
@Check('payment_events_kind', "kind IN ('payment_succeeded', 'payment_failed', 'refund', 'refund_reversal', 'dispute', 'dispute_won', 'dispute_lost', 'other')")
@Check(
  'payment_events_outcome',
  "outcome IN ('received', 'applied', 'deferred', 'ignored', 'unknown_purchase', 'amount_mismatch', 'currency_mismatch', 'livemode_mismatch')",
)
@Check('payment_events_body_hash', "body_hash ~ '^[0-9a-f]{64}$'")
@Check('payment_events_amounts', 'amount_cents >= 0 AND refunded_total_cents >= 0')
@Index('payment_events_purchase_idx', ['purchaseId'], { where: 'purchase_id IS NOT NULL' })
@Index('payment_events_unresolved_idx', ['provider', 'paymentRef'], { where: 'purchase_id IS NULL' })
@Index('payment_events_object_ref_idx', ['provider', 'objectRef'], { where: 'object_ref IS NOT NULL' })
export class RecordedPaymentEvent {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'payment_events_pkey' })
  provider!: PaymentProviderName;

  @PrimaryColumn('text', { name: 'event_id', primaryKeyConstraintName: 'payment_events_pkey' })
  eventId!: string;

  /** The provider's own type. */
  @Column('text')
  type!: string;

  @Column('text')
  kind!: PaymentEventKind;

  /** The purchase it applied to; null while none is known. */
  @Column('uuid', { name: 'purchase_id', nullable: true })
  @ForeignKey('purchases', { name: 'payment_events_purchase_id_fkey' })
  purchaseId!: string | null;

  /** The purchase id the event named, as sent. */
  @Column('text', { name: 'purchase_ref', nullable: true })
  purchaseRef!: string | null;

  /** The provider payment the event named (Stripe: PaymentIntent id). */
  @Column('text', { name: 'payment_ref', nullable: true })
  paymentRef!: string | null;

  /** The provider's checkout (Stripe: Checkout Session id). */
  @Column('text', { name: 'checkout_ref', nullable: true })
  checkoutRef!: string | null;

  /** The refund or dispute the event is about (Stripe: re_…, dp_…). */
  @Column('text', { name: 'object_ref', nullable: true })
  objectRef!: string | null;

  /** The provider's amount: paid, refunded by this event, or disputed (bigint: read as a string). */
  @Column('bigint', { name: 'amount_cents', nullable: true })
  amountCents!: string | null;

  /** Stripe charge.refunded: the charge's refunds so far. */
  @Column('bigint', { name: 'refunded_total_cents', nullable: true })
  refundedTotalCents!: string | null;

  /** Lower case, as the provider named it. */
  @Column('text', { nullable: true })
  currency!: string | null;

  @Column('boolean', { nullable: true })
  livemode!: boolean | null;

  /** SHA-256 (hex) of the raw body; null for events recorded before it was kept. */
  @Column('text', { name: 'body_hash', nullable: true })
  bodyHash!: string | null;

  @Column('text', { default: 'received' })
  outcome!: PaymentEventOutcome | 'received';

  @CreateDateColumn({ type: 'timestamptz', name: 'received_at', default: () => 'now()' })
  receivedAt!: Date;
}

/** A delivery whose event id was already recorded with another body (CONTRACT §19.1): it changed nothing. */
@Entity('payment_event_conflicts')
@Check('payment_event_conflicts_body_hash', "body_hash ~ '^[0-9a-f]{64}$'")
@ForeignKey('payment_events', ['provider', 'eventId'], ['provider', 'eventId'], { name: 'payment_event_conflicts_event_fkey' })
export class PaymentEventConflict {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'payment_event_conflicts_pkey' })
  provider!: PaymentProviderName;

  @PrimaryColumn('text', { name: 'event_id', primaryKeyConstraintName: 'payment_event_conflicts_pkey' })
  eventId!: string;

  @PrimaryColumn('text', { name: 'body_hash', primaryKeyConstraintName: 'payment_event_conflicts_pkey' })
  bodyHash!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'received_at', default: () => 'now()' })
  receivedAt!: Date;
}
