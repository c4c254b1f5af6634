import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn, Unique } from 'typeorm';

/** One admin's payout run (CONTRACT §22), unique on its idempotency key; triggers refuse DELETE and TRUNCATE. */
@Entity('payout_runs')
@Unique('payout_runs_idempotency_key_key', ['idempotencyKey'])
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
}
