import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The outbox: one event (CONTRACT §21) recorded in the transaction of the change it reports, only
 * when some endpoint of the developer is enabled and subscribed (a ping names its `endpoint_id`).
 * Its id is the delivery's `webhook-id`, the same on every retry and every endpoint. A trigger
 * fans it out into deliveries and jobs (migrations/1797000000000-add-webhooks.ts).
 */
@Entity('webhook_events')
export class WebhookEvent {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_events_pkey' })
  id!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'webhook_events_developer_id_fkey' })
  developerId!: string;

  @Column('text')
  type!: string;

  /** The time of the change (the body's `timestamp`). */
  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt!: Date;

  @Column('jsonb')
  data!: Record<string, unknown>;

  @Column('uuid', { name: 'endpoint_id', nullable: true })
  @ForeignKey('webhook_endpoints', { name: 'webhook_events_endpoint_id_fkey' })
  endpointId!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
