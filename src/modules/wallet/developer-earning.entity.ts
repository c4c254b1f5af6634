import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The developer's 70% of one insertion, in mills (1/1000 USD): 1 coin = 250, the share 175. Append-only (developer_earnings_append_only, _no_truncate). */
@Entity('developer_earnings')
@Unique('developer_earnings_insertion_key', ['insertionId'])
@Check('developer_earnings_amounts', 'coins >= 1 AND gross_mills = coins * 250 AND earned_mills * 10 = gross_mills * 7')
@Index('developer_earnings_developer_idx', ['developerId', 'gameId'])
export class DeveloperEarning {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'developer_earnings_pkey' })
  id!: string;

  @Column('uuid', { name: 'insertion_id' })
  @ForeignKey('insertions', { name: 'developer_earnings_insertion_id_fkey' })
  insertionId!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'developer_earnings_developer_id_fkey' })
  developerId!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'developer_earnings_game_id_fkey' })
  gameId!: string;

  @Column('integer')
  coins!: number;

  @Column('bigint', { name: 'gross_mills' })
  grossMills!: string;

  @Column('bigint', { name: 'earned_mills' })
  earnedMills!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
