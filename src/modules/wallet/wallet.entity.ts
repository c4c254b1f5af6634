import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { CHAIN_GENESIS_HEX } from './ledger-append';

/** A player's wallet and the head of its ledger chain (the latest entry's seq, running balance and hash; wallets_balance_follows_ledger refuses any other). */
@Entity('wallets')
@Unique('wallets_player_key', ['playerId'])
@Check('wallets_balance_non_negative', 'balance >= 0')
@Check('wallets_last_seq_non_negative', 'last_seq >= 0')
@Check('wallets_last_hash_length', 'octet_length(last_hash) = 32')
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

  /** The newest entry's hash; the chain's genesis (32 zero bytes) while there is none. (TypeORM compares the default without its ::bytea cast.) */
  @Column('bytea', { name: 'last_hash', default: () => `'\\x${CHAIN_GENESIS_HEX}'` })
  lastHash!: Buffer;

  /** Set while the wallet is frozen (a payment dispute, or an admin: CONTRACT §19). */
  @Column('timestamptz', { name: 'frozen_at', nullable: true })
  frozenAt!: Date | null;
}
