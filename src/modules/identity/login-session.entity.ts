import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A signed-in browser: the cookie's token is stored only as its SHA-256 hash. */
@Entity('login_sessions')
@Unique('login_sessions_token_hash_key', ['tokenHash'])
@Index('login_sessions_account_idx', ['accountId'])
export class LoginSession {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'login_sessions_pkey' })
  id!: string;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'login_sessions_account_id_fkey' })
  accountId!: string;

  @Column('bytea', { name: 'token_hash' })
  tokenHash!: Buffer;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
