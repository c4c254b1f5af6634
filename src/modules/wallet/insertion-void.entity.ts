import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique, CreateDateColumn } from 'typeorm';

/**
 * An insertion an admin voided (CONTRACT §19): the ledger entry (kind void) that returned its coins,
 * and its earning taken off the developer on the day of the void (the amounts mirror the
 * insertion's developer_earnings row). One per insertion (the primary key); append-only (triggers).
 */
@Entity('insertion_voids')
@Unique('insertion_voids_ledger_entry_key', ['ledgerEntryId'])
@Check('insertion_voids_amounts', 'coins >= 1 AND gross_mills = coins * 250 AND earned_mills * 10 = gross_mills * 7')
@Check('insertion_voids_reason_length', 'char_length(reason) BETWEEN 1 AND 200')
@Index('insertion_voids_developer_idx', ['developerId', 'gameId', 'voidedAt'])
export class InsertionVoid {
  @PrimaryColumn('uuid', { name: 'insertion_id', primaryKeyConstraintName: 'insertion_voids_pkey' })
  @ForeignKey('insertions', { name: 'insertion_voids_insertion_id_fkey' })
  insertionId!: string;

  @Column('bigint', { name: 'ledger_entry_id' })
  @ForeignKey('ledger_entries', { name: 'insertion_voids_ledger_entry_id_fkey' })
  ledgerEntryId!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'insertion_voids_developer_id_fkey' })
  developerId!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'insertion_voids_game_id_fkey' })
  gameId!: string;

  @Column('integer')
  coins!: number;

  @Column('bigint', { name: 'gross_mills' })
  grossMills!: string;

  @Column('bigint', { name: 'earned_mills' })
  earnedMills!: string;

  @Column('text')
  reason!: string;

  @Column('uuid', { name: 'voided_by' })
  @ForeignKey('accounts', { name: 'insertion_voids_voided_by_fkey' })
  voidedBy!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'voided_at', default: () => 'now()' })
  voidedAt!: Date;
}
