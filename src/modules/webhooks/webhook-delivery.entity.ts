import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** One event for one endpoint and its attempts so far (the delivery log, CONTRACT §21). */
@Entity('webhook_deliveries')
@Unique('webhook_deliveries_event_endpoint_key', ['eventId', 'endpointId'])
@Index('webhook_deliveries_endpoint_idx', ['endpointId', 'createdAt', 'id'])
@Index('webhook_deliveries_pending_idx', ['nextAttemptAt'], { where: "status = 'pending'" })
@Check('webhook_deliveries_status', "status IN ('pending', 'succeeded', 'failed')")
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string;

  @Column('uuid', { name: 'event_id' })
  @ForeignKey('webhook_events', { name: 'webhook_deliveries_event_id_fkey' })
  eventId!: string;

  @Column('uuid', { name: 'endpoint_id' })
  @ForeignKey('webhook_endpoints', { name: 'webhook_deliveries_endpoint_id_fkey' })
  endpointId!: string;

  @Column('text', { default: 'pending' })
  status!: 'pending' | 'succeeded' | 'failed';

  @Column('integer', { default: 0 })
  attempts!: number;

  @Column('timestamptz', { name: 'last_attempt_at', nullable: true })
  lastAttemptAt!: Date | null;

  @Column('integer', { name: 'last_status_code', nullable: true })
  lastStatusCode!: number | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError!: string | null;

  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
