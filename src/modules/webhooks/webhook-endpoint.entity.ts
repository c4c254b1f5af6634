import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A developer's webhook endpoint (CONTRACT §21). `secret` is kept as given to the developer
 * (`whsec_` + base64 of 32 bytes): every delivery is signed with it, which a hash would not allow.
 * After a rotation the old one signs too until `previous_secret_expires_at` (24 hours). Never
 * deleted: DELETE sets `deleted_at`.
 */
@Entity('webhook_endpoints')
@Index('webhook_endpoints_developer_idx', ['developerId'])
@Check('webhook_endpoints_url_length', 'char_length(url) BETWEEN 1 AND 2000')
@Check('webhook_endpoints_description_length', 'char_length(description) <= 100')
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  id!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'webhook_endpoints_developer_id_fkey' })
  developerId!: string;

  @Column('text')
  url!: string;

  @Column('text', { array: true })
  events!: string[];

  @Column('text', { nullable: true })
  description!: string | null;

  @Column('boolean', { default: true })
  enabled!: boolean;

  @Column('text')
  secret!: string;

  @Column('text', { name: 'previous_secret', nullable: true })
  previousSecret!: string | null;

  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column('timestamptz', { name: 'last_success_at', nullable: true })
  lastSuccessAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;
}
