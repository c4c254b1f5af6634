import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A single-use password-reset link (CONTRACT §20), stored as the SHA-256 hash of its token; valid 60 minutes. */
@Entity('password_reset_tokens')
@Index('password_reset_tokens_account_idx', ['accountId'])
export class PasswordResetToken {
  @PrimaryColumn('bytea', { name: 'token_hash', primaryKeyConstraintName: 'password_reset_tokens_pkey' })
  tokenHash!: Buffer;

  /** Null for a decoy: the row an unknown e-mail's request stores, so both do the same writes (CONTRACT §20). */
  @Column('uuid', { name: 'account_id', nullable: true })
  @ForeignKey('accounts', { name: 'password_reset_tokens_account_id_fkey' })
  accountId!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt!: Date | null;
}
