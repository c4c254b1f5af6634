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
@Check('payment_events_kind', "kind IN ('payment_succeeded', 'payment_failed', 'refund', 'dispute', 'other')")
@Check('payment_events_outcome', "outcome IN ('received', 'applied', 'deferred', 'ignored', 'unknown_purchase')")
@Index('payment_events_purchase_idx', ['purchaseId'], { where: 'purchase_id IS NOT NULL' })
@Index('payment_events_unresolved_idx', ['provider', 'paymentRef'], { where: 'purchase_id IS NULL' })
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

  @Column('text', { default: 'received' })
  outcome!: PaymentEventOutcome | 'received';

  @CreateDateColumn({ type: 'timestamptz', name: 'received_at', default: () => 'now()' })
  receivedAt!: Date;
}
