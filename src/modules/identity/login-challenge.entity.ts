import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A right password of an account with two-factor on, waiting for the code (CONTRACT §20): stored
 * as the SHA-256 of its random token, valid 5 minutes, ended by its use or by 5 wrong codes.
 */
@Entity('login_challenges')
@Index('login_challenges_account_idx', ['accountId'])
@Check('login_challenges_failures_range', 'failures BETWEEN 0 AND 5')
export class LoginChallenge {
  @PrimaryColumn('bytea', { name: 'challenge_hash', primaryKeyConstraintName: 'login_challenges_pkey' })
  challengeHash!: Buffer;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'login_challenges_account_id_fkey' })
  accountId!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('integer', { default: 0 })
  failures!: number;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt!: Date | null;
}
