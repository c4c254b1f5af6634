import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { LedgerKind } from './wallet.repository';

/**
 * One append to a wallet's ledger. Append-only: a trigger (ledger_entries_append_only, in the
 * migration) refuses UPDATE and DELETE; the checks refuse a negative balance and a forked chain.
 * Purchase and refund entries name their purchase, at most one of each per purchase (CONTRACT §19).
 */
@Entity('ledger_entries')
@Unique('ledger_entries_wallet_seq_key', ['walletId', 'seq'])
@Check('ledger_entries_balance_non_negative', 'balance_after >= 0')
@Check('ledger_entries_seq_positive', 'seq >= 1')
@Check('ledger_entries_delta_non_zero', 'delta <> 0')
@Check('ledger_entries_kind', "kind IN ('credit', 'debit', 'purchase', 'refund', 'void')")
@Check('ledger_entries_kind_sign', "(kind IN ('credit', 'purchase', 'void')) = (delta > 0)")
@Check('ledger_entries_purchase_link', "(kind IN ('purchase', 'refund')) = (purchase_id IS NOT NULL)")
@Index('ledger_entries_purchase_credit_key', ['purchaseId'], { unique: true, where: "kind = 'purchase'" })
@Index('ledger_entries_purchase_refund_key', ['purchaseId'], { unique: true, where: "kind = 'refund'" })
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
  kind!: LedgerKind;

  @Column('text', { nullable: true })
  reason!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** The purchase a purchase or refund entry credits or takes back. */
  @Column('uuid', { name: 'purchase_id', nullable: true })
  @ForeignKey('purchases', { name: 'ledger_entries_purchase_id_fkey' })
  purchaseId!: string | null;
}
