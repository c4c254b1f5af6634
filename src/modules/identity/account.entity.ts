import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An account: e-mail and password; a player and a developer profile hang off it. */
@Entity('accounts')
// Unique on lower(email): an expression index TypeORM cannot express, so it is not synchronized.
@Index('accounts_email_key', { synchronize: false })
// The admin's search: GIN trigram indexes on lower(email) and lower(display_name), expressions too.
@Index('accounts_email_search_idx', { synchronize: false })
@Index('accounts_display_name_search_idx', { synchronize: false })
@Check('accounts_display_name_length', 'char_length(display_name) BETWEEN 1 AND 32')
@Check(
  'accounts_erased_fields',
  `CASE WHEN erased_at IS NULL THEN email IS NOT NULL AND password_hash IS NOT NULL AND display_name IS NOT NULL
               ELSE email IS NULL AND password_hash IS NULL AND display_name IS NULL END`,
)
export class Account {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'accounts_pkey' })
  id!: string;

  /** NULL once erased (CONTRACT §20), as are the password hash and the display name. */
  @Column('text', { nullable: true })
  email!: string | null;

  @Column('text', { name: 'password_hash', nullable: true })
  passwordHash!: string | null;

  @Column('text', { name: 'display_name', nullable: true })
  displayName!: string | null;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt!: Date | null;

  @Column('boolean', { name: 'is_admin', default: false })
  isAdmin!: boolean;

  /** Set while an admin's ban lasts (CONTRACT §18): no login session, no API key works. */
  @Column('timestamptz', { name: 'banned_at', nullable: true })
  bannedAt!: Date | null;

  /** Set when the person erased the account (CONTRACT §20): the row stays for the books, nothing personal in it. */
  @Column('timestamptz', { name: 'erased_at', nullable: true })
  erasedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
