import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The player profile of an account (at most one): display name, saved initials, XP. */
@Entity('players')
@Unique('players_account_key', ['accountId'])
@Check('players_initials_format', "initials ~ '^[A-Z]{3}$'")
@Check('players_xp_non_negative', 'xp >= 0')
@Check('players_display_name_length', 'char_length(display_name) BETWEEN 1 AND 32')
export class Player {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'players_pkey' })
  id!: string;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'players_account_id_fkey' })
  accountId!: string;

  @Column('text', { name: 'display_name' })
  displayName!: string;

  @Column('text', { nullable: true })
  initials!: string | null;

  @Column('integer', { default: 0 })
  xp!: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
