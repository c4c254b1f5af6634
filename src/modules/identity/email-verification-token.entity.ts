import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A single-use e-mail verification link, stored as the SHA-256 hash of its token. */
@Entity('email_verification_tokens')
@Index('email_verification_tokens_account_idx', ['accountId'])
export class EmailVerificationToken {
  @PrimaryColumn('bytea', { name: 'token_hash', primaryKeyConstraintName: 'email_verification_tokens_pkey' })
  tokenHash!: Buffer;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'email_verification_tokens_account_id_fkey' })
  accountId!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt!: Date | null;
}
