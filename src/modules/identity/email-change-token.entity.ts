import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A single-use link confirming a new e-mail address (CONTRACT §20), stored as the SHA-256 hash of its token; valid 24 hours. */
@Entity('email_change_tokens')
@Index('email_change_tokens_account_idx', ['accountId'])
export class EmailChangeToken {
  @PrimaryColumn('bytea', { name: 'token_hash', primaryKeyConstraintName: 'email_change_tokens_pkey' })
  tokenHash!: Buffer;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'email_change_tokens_account_id_fkey' })
  accountId!: string;

  /** The address the link confirms, normalised as at sign-up (normalizeEmail). */
  @Column('text', { name: 'new_email' })
  newEmail!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt!: Date | null;
}
