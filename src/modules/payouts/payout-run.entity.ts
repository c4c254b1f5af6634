import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn, Unique } from 'typeorm';

/** One admin's payout run (CONTRACT §22), unique on its idempotency key; triggers refuse DELETE and TRUNCATE. */
@Entity('payout_runs')
@Unique('payout_runs_idempotency_key_key', ['idempotencyKey'])
@Check('payout_runs_finished_after_created', 'finished_at IS NULL OR finished_at >= created_at')
export class PayoutRun {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'payout_runs_pkey' })
  id!: string;

  @Column('text', { name: 'idempotency_key' })
  idempotencyKey!: string;

  /** The admin's account. */
  @Column('uuid', { name: 'requested_by' })
  @ForeignKey('accounts', { name: 'payout_runs_requested_by_fkey' })
  requestedBy!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Set once, with the run's audit entry: a run without it stopped half-way (a crash) or is still going. */
  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt!: Date | null;
}
