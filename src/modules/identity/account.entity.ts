import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An account: e-mail and password; a player and a developer profile hang off it. */
@Entity('accounts')
// Unique on lower(email): an expression index TypeORM cannot express, so it is not synchronized.
@Index('accounts_email_key', { synchronize: false })
// The admin's search: GIN trigram indexes on lower(email) and lower(display_name), expressions too.
@Index('accounts_email_search_idx', { synchronize: false })
@Index('accounts_display_name_search_idx', { synchronize: false })
@Check('accounts_display_name_length', 'char_length(display_name) BETWEEN 1 AND 32')
export class Account {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'accounts_pkey' })
  id!: string;

  @Column('text')
  email!: string;

  @Column('text', { name: 'password_hash' })
  passwordHash!: string;

  @Column('text', { name: 'display_name' })
  displayName!: string;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt!: Date | null;

  @Column('boolean', { name: 'is_admin', default: false })
  isAdmin!: boolean;

  /** Set while an admin's ban lasts (CONTRACT §18): no login session, no API key works. */
  @Column('timestamptz', { name: 'banned_at', nullable: true })
  bannedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
