import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One admin or developer action (CONTRACT §18). Append-only: triggers in the migration
 * (audit_log_append_only, audit_log_no_truncate) refuse UPDATE, DELETE and TRUNCATE.
 */
@Entity('audit_log')
@Check('audit_log_action_format', "action ~ '^[a-z]+\\.[a-z_]+$'")
@Check('audit_log_target_type', "target_type IN ('user', 'version', 'game', 'key', 'score', 'insertion', 'payout_run', 'payout')")
@Check('audit_log_reason_length', 'char_length(reason) <= 200')
// (actor_id, id DESC) and (target_id, id DESC): TypeORM compares name and columns, not their order.
@Index('audit_log_actor_idx', ['actorId', 'id'])
@Index('audit_log_target_idx', ['targetId', 'id'])
export class AuditLogEntry {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'audit_log_pkey' })
  id!: string;

  @Column('timestamptz', { default: () => 'now()' })
  at!: Date;

  @Column('uuid', { name: 'actor_id' })
  @ForeignKey('accounts', { name: 'audit_log_actor_id_fkey' })
  actorId!: string;

  @Column('text')
  action!: string;

  @Column('text', { name: 'target_type' })
  targetType!: string;

  @Column('text', { name: 'target_id' })
  targetId!: string;

  @Column('text', { nullable: true })
  reason!: string | null;

  @Column('jsonb', { default: {} })
  details!: Record<string, unknown>;

  @Column('text', { name: 'request_id', nullable: true })
  requestId!: string | null;
}
