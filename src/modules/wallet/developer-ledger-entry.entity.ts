import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { DEVELOPER_LEDGER_KIND_NAMES, DEVELOPER_LEDGER_SHARDS, DeveloperLedgerKind, developerLedgerKindsWhere, sqlKindList } from './ledger-append';

/**
 * One append to a developer's ledger (CONTRACT §22), in mills. Append-only: triggers
 * (developer_ledger_entries_append_only, _no_truncate) refuse UPDATE, DELETE and TRUNCATE to every
 * role. Written only by the developer append (ledger-append.ts), whose kinds the checks are built
 * from. The balance may go below zero (a void after a payout), so no check on it. `hash` chains the
 * entry to the developer's previous one (docs/database.md, "Hash chains").
 */
@Entity('developer_ledger_entries')
@Unique('developer_ledger_entries_developer_shard_seq_key', ['developerId', 'shard', 'seq'])
@Check('developer_ledger_entries_shard_range', `shard >= 0 AND shard < ${DEVELOPER_LEDGER_SHARDS}`)
@Check('developer_ledger_entries_seq_positive', 'seq >= 1')
@Check('developer_ledger_entries_amount_non_zero', 'amount_mills <> 0')
@Check('developer_ledger_entries_kind', `kind IN (${sqlKindList(DEVELOPER_LEDGER_KIND_NAMES)})`)
@Check('developer_ledger_entries_kind_sign', `(kind IN (${sqlKindList(developerLedgerKindsWhere({ mills: 'in' }))})) = (amount_mills > 0)`)
@Check('developer_ledger_entries_insertion_link', `(kind IN (${sqlKindList(developerLedgerKindsWhere({ names: 'insertion' }))})) = (insertion_id IS NOT NULL)`)
@Check('developer_ledger_entries_insertion_fields', `(insertion_id IS NOT NULL) = (game_id IS NOT NULL AND coins IS NOT NULL AND gross_mills IS NOT NULL) AND (insertion_id IS NOT NULL) = (game_id IS NOT NULL OR coins IS NOT NULL OR gross_mills IS NOT NULL)`)
@Check('developer_ledger_entries_insertion_amounts', 'coins >= 1 AND gross_mills = coins * 250 AND abs(amount_mills) * 10 = gross_mills * 7')
@Check('developer_ledger_entries_payout_link', `(kind IN (${sqlKindList(developerLedgerKindsWhere({ names: 'payout' }))})) = (payout_id IS NOT NULL)`)
@Check('developer_ledger_entries_hash_length', 'octet_length(hash) = 32')
@Index('developer_ledger_entries_earning_key', ['insertionId'], { unique: true, where: "kind = 'earning'" })
@Index('developer_ledger_entries_void_key', ['insertionId'], { unique: true, where: "kind = 'void'" })
@Index('developer_ledger_entries_payout_key', ['payoutId'], { unique: true, where: "kind = 'payout'" })
@Index('developer_ledger_entries_payout_reversal_key', ['payoutId'], { unique: true, where: "kind = 'payout_reversal'" })
export class DeveloperLedgerEntry {
  /** bigint identity: read as a string. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'developer_ledger_entries_pkey' })
  id!: string;

  @Column('uuid', { name: 'developer_id' })
  developerId!: string;

  /** Its chain within the developer's ledger (the paying wallet's shard; 0 for payouts). */
  @Column('smallint')
  shard!: number;

  @Column('integer')
  seq!: number;

  @Column('text')
  kind!: DeveloperLedgerKind;

  /** Signed mills (bigint: read as a string). */
  @Column('bigint', { name: 'amount_mills' })
  amountMills!: string;

  @Column('bigint', { name: 'balance_after_mills' })
  balanceAfterMills!: string;

  /** The insertion an earning or void is about. */
  @Column('uuid', { name: 'insertion_id', nullable: true })
  @ForeignKey('insertions', { name: 'developer_ledger_entries_insertion_id_fkey' })
  insertionId!: string | null;

  /**
   * An earning's or void's insertion's game, coins and gross mills (the earning entry is the
   * developer's record of the insertion; developer_earnings is a view of them). No foreign key to
   * games: each would share-lock the game's row on every insert-coin; the insertion holds one, and
   * check:invariants holds the entry to its insertion.
   */
  @Column('uuid', { name: 'game_id', nullable: true })
  gameId!: string | null;

  @Column('integer', { nullable: true })
  coins!: number | null;

  /** bigint: read as a string. */
  @Column('bigint', { name: 'gross_mills', nullable: true })
  grossMills!: string | null;

  /** The payout a payout or payout_reversal is about (its table comes with payouts, CONTRACT §22). */
  @Column('uuid', { name: 'payout_id', nullable: true })
  payoutId!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** SHA-256 over the previous entry's hash and this entry's fields. */
  @Column('bytea')
  hash!: Buffer;
}
