import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import type { PayoutMethodKind, PayoutStatus } from './payouts.rules';

/**
 * A payout (CONTRACT §22): money sent to a developer, made by a run with every shard head of the
 * developer locked (`balance_before_mills` its whole balance then, `held_mills` its earnings on
 * hold), never more than was available (payouts_within_available), in whole cents. Triggers keep it
 * moving forward only (pending → paid | failed, nothing else changes), refuse DELETE and TRUNCATE,
 * and at COMMIT hold it to its ledger entries: its `payout` entry (−amount), and once failed its
 * `payout_reversal` (+amount) (migrations/1796910000000-add-payouts.ts).
 */
@Entity('payouts')
@Unique('payouts_run_developer_key', ['runId', 'developerId'])
@Check('payouts_amount_positive', 'amount_mills > 0')
@Check('payouts_whole_cents', 'amount_mills % 10 = 0')
@Check('payouts_held_non_negative', 'held_mills >= 0')
@Check('payouts_within_available', 'amount_mills <= balance_before_mills - held_mills')
@Check('payouts_status', "status IN ('pending', 'paid', 'failed')")
@Check('payouts_method_kind', "method_kind IN ('sandbox', 'stripe')")
@Check('payouts_method_account', "(method_kind = 'stripe') = (method_account_id IS NOT NULL)")
@Check('payouts_paid_state', "(status = 'paid') = (paid_at IS NOT NULL) AND (status <> 'paid' OR reference IS NOT NULL)")
@Check('payouts_failed_state', "(status = 'failed') = (failed_at IS NOT NULL AND failure_reason IS NOT NULL)")
@Check('payouts_reference_length', 'char_length(reference) BETWEEN 1 AND 200')
@Check('payouts_failure_reason_length', 'char_length(failure_reason) BETWEEN 1 AND 200')
@Index('payouts_developer_idx', ['developerId', 'createdAt', 'id'])
@Index('payouts_created_idx', ['createdAt', 'id'])
@Index('payouts_pending_idx', ['createdAt'], { where: "status = 'pending'" })
export class Payout {
  /** Chosen by the service: it is also the Stripe transfer's idempotency key. */
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'payouts_pkey' })
  id!: string;

  @Column('uuid', { name: 'run_id' })
  @ForeignKey('payout_runs', { name: 'payouts_run_id_fkey' })
  runId!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'payouts_developer_id_fkey' })
  developerId!: string;

  /** bigint: read as a string. */
  @Column('bigint', { name: 'amount_mills' })
  amountMills!: string;

  @Column('bigint', { name: 'balance_before_mills' })
  balanceBeforeMills!: string;

  @Column('bigint', { name: 'held_mills' })
  heldMills!: string;

  @Column('text', { default: 'pending' })
  status!: PayoutStatus;

  /** The payout method at the time of the run. */
  @Column('text', { name: 'method_kind' })
  methodKind!: PayoutMethodKind;

  @Column('text', { name: 'method_account_id', nullable: true })
  methodAccountId!: string | null;

  /** The admin's reference, or the Stripe transfer id. */
  @Column('text', { nullable: true })
  reference!: string | null;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'paid_at', nullable: true })
  paidAt!: Date | null;

  @Column('timestamptz', { name: 'failed_at', nullable: true })
  failedAt!: Date | null;
}
