import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * One append to a wallet's ledger. Append-only: a trigger (ledger_entries_append_only, in the
 * migration) refuses UPDATE and DELETE; the checks refuse a negative balance and a forked chain.
 */
@Entity('ledger_entries')
@Unique('ledger_entries_wallet_seq_key', ['walletId', 'seq'])
@Check('ledger_entries_balance_non_negative', 'balance_after >= 0')
@Check('ledger_entries_seq_positive', 'seq >= 1')
@Check('ledger_entries_delta_non_zero', 'delta <> 0')
@Check('ledger_entries_kind', "kind IN ('credit', 'debit')")
@Check('ledger_entries_kind_sign', "(kind = 'credit') = (delta > 0)")
export class LedgerEntry {
  /** bigint identity: read as a string. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'ledger_entries_pkey' })
  id!: string;

  @Column('uuid', { name: 'wallet_id' })
  @ForeignKey('wallets', { name: 'ledger_entries_wallet_id_fkey' })
  walletId!: string;

  @Column('integer')
  seq!: number;

  @Column('integer')
  delta!: number;

  @Column('bigint', { name: 'balance_after' })
  balanceAfter!: string;

  @Column('text')
  kind!: 'credit' | 'debit';

  @Column('text', { nullable: true })
  reason!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
