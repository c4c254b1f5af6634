import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * An account's two-factor authentication (CONTRACT §20): the TOTP secret in force once enabled, a
 * setup waiting for its first code, and the last TOTP step used (never accepted again). The secret
 * leaves the database only in the answer to setup.
 */
@Entity('two_factor_settings')
@Check('two_factor_settings_enabled_has_secret', '(enabled_at IS NULL) = (secret IS NULL)')
export class TwoFactorSettings {
  @PrimaryColumn('uuid', { name: 'account_id', primaryKeyConstraintName: 'two_factor_settings_pkey' })
  @ForeignKey('accounts', { name: 'two_factor_settings_account_id_fkey' })
  accountId!: string;

  @Column('text', { nullable: true })
  secret!: string | null;

  @Column('text', { name: 'pending_secret', nullable: true })
  pendingSecret!: string | null;

  @Column('timestamptz', { name: 'enabled_at', nullable: true })
  enabledAt!: Date | null;

  @Column('bigint', { name: 'last_used_step', nullable: true })
  lastUsedStep!: string | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}

/** A single-use recovery code, stored as its SHA-256 (CONTRACT §20). */
@Entity('two_factor_recovery_codes')
export class TwoFactorRecoveryCode {
  @PrimaryColumn('uuid', { name: 'account_id', primaryKeyConstraintName: 'two_factor_recovery_codes_pkey' })
  @ForeignKey('accounts', { name: 'two_factor_recovery_codes_account_id_fkey' })
  accountId!: string;

  @PrimaryColumn('bytea', { name: 'code_hash', primaryKeyConstraintName: 'two_factor_recovery_codes_pkey' })
  codeHash!: Buffer;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt!: Date | null;
}
