import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { LEDGER_KIND_NAMES, LedgerKind, ledgerKindsWhere, sqlKindList } from './ledger-append';

/**
 * One append to a wallet's ledger. Append-only: a trigger (ledger_entries_append_only, in the
 * migration) refuses UPDATE and DELETE; the checks refuse a negative balance and a forked chain;
 * `hash` chains it to the wallet's previous entry.
 * Written only by the one append (ledger-append.ts), whose kinds the checks below are built from.
 * Purchase, refund, refund_reversal and dispute_won entries name their purchase; at most one purchase
 * and one dispute_won entry per purchase (CONTRACT §19, §19.1: refunds may be partial, several).
 */
@Entity('ledger_entries')
@Unique('ledger_entries_wallet_seq_key', ['walletId', 'seq'])
@Check('ledger_entries_balance_non_negative', 'balance_after >= 0')
@Check('ledger_entries_seq_positive', 'seq >= 1')
@Check('ledger_entries_delta_non_zero', 'delta <> 0')
@Check('ledger_entries_kind', `kind IN (${sqlKindList(LEDGER_KIND_NAMES)})`)
@Check('ledger_entries_kind_sign', `(kind IN (${sqlKindList(ledgerKindsWhere({ coins: 'in' }))})) = (delta > 0)`)
@Check('ledger_entries_purchase_link', `(kind IN (${sqlKindList(ledgerKindsWhere({ purchase: true }))})) = (purchase_id IS NOT NULL)`)
@Check('ledger_entries_hash_length', 'octet_length(hash) = 32')
@Index('ledger_entries_purchase_credit_key', ['purchaseId'], { unique: true, where: "kind = 'purchase'" })
@Index('ledger_entries_purchase_dispute_won_key', ['purchaseId'], { unique: true, where: "kind = 'dispute_won'" })
@Index('ledger_entries_purchase_idx', ['purchaseId'], { where: 'purchase_id IS NOT NULL' })
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

  /** The purchase a purchase, refund, refund_reversal or dispute_won entry is about. */
  @Column('uuid', { name: 'purchase_id', nullable: true })
  @ForeignKey('purchases', { name: 'ledger_entries_purchase_id_fkey' })
  purchaseId!: string | null;

  /** SHA-256 over the wallet's previous entry's hash and this entry's fields (docs/database.md, "Hash chains"). */
  @Column('bytea')
  hash!: Buffer;
}
