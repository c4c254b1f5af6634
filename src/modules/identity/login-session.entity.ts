import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A signed-in browser: the cookie's token is stored only as its SHA-256 hash. */
@Entity('login_sessions')
@Unique('login_sessions_token_hash_key', ['tokenHash'])
@Index('login_sessions_account_idx', ['accountId'])
@Check('login_sessions_user_agent_length', 'char_length(user_agent) <= 200')
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

  /** The `User-Agent` it signed in with, its first 200 characters; null when none was sent (CONTRACT §20). */
  @Column('text', { name: 'user_agent', nullable: true })
  userAgent!: string | null;

  /**
   * When it was last used, moved at most once a minute (LoginSessionService); null for a session
   * from before the column, which reads as `createdAt` until it is next used.
   */
  @Column('timestamptz', { name: 'last_seen_at', nullable: true, default: () => 'now()' })
  lastSeenAt!: Date | null;
}
