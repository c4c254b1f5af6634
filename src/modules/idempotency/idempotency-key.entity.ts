import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An idempotency key of a caller, with the request's fingerprint and the answer given to it. */
@Entity('idempotency_keys')
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKey {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'idempotency_keys_pkey' })
  caller!: string;

  @PrimaryColumn('text', { primaryKeyConstraintName: 'idempotency_keys_pkey' })
  key!: string;

  @Column('text')
  fingerprint!: string;

  @Column('integer', { name: 'status_code', nullable: true })
  statusCode!: number | null;

  @Column('jsonb', { nullable: true })
  response!: Record<string, unknown> | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
