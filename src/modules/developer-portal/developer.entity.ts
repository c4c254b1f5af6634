import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The developer profile of an account (at most one). */
@Entity('developers')
@Unique('developers_account_key', ['accountId'])
export class Developer {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'developers_pkey' })
  id!: string;

  @Column('uuid', { name: 'account_id' })
  @ForeignKey('accounts', { name: 'developers_account_id_fkey' })
  accountId!: string;

  @Column('text', { name: 'display_name' })
  displayName!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
