import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A player's wallet and the head of its ledger chain (the latest entry's seq and running balance; wallets_balance_follows_ledger refuses any other). */
@Entity('wallets')
@Unique('wallets_player_key', ['playerId'])
@Check('wallets_balance_non_negative', 'balance >= 0')
@Check('wallets_last_seq_non_negative', 'last_seq >= 0')
export class Wallet {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'wallets_pkey' })
  id!: string;

  @Column('uuid', { name: 'player_id' })
  @ForeignKey('players', { name: 'wallets_player_id_fkey' })
  playerId!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** bigint: read as a string. */
  @Column('bigint', { default: 0 })
  balance!: string;

  @Column('integer', { name: 'last_seq', default: 0 })
  lastSeq!: number;

  /** Set while the wallet is frozen (a payment dispute, or an admin: CONTRACT §19). */
  @Column('timestamptz', { name: 'frozen_at', nullable: true })
  frozenAt!: Date | null;
}
