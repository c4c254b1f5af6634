import { DEVELOPER_LEDGER_SHARDS } from './ledger-append';
import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * The head of one shard of a developer's ledger (CONTRACT §22, DEVELOPER_LEDGER_SHARDS per
 * developer), like a wallet's: the shard's newest entry's running balance in mills, seq and hash.
 * All of a developer's heads are created with it at (0, 0, genesis) by a trigger
 * (developers_open_ledger_heads); another (developer_balances_follow_ledger) refuses any head that is
 * not its newest entry's, and rows are never deleted. The developer's balance is the sum of its heads'.
 */
@Entity('developer_balances')
@Check('developer_balances_shard_range', `shard >= 0 AND shard < ${DEVELOPER_LEDGER_SHARDS}`)
@Check('developer_balances_last_seq_non_negative', 'last_seq >= 0')
@Check('developer_balances_last_hash_length', 'octet_length(last_hash) = 32')
export class DeveloperBalance {
  @PrimaryColumn('uuid', { name: 'developer_id', primaryKeyConstraintName: 'developer_balances_pkey' })
  @ForeignKey('developers', { name: 'developer_balances_developer_id_fkey' })
  developerId!: string;

  @PrimaryColumn('smallint', { primaryKeyConstraintName: 'developer_balances_pkey' })
  shard!: number;

  /** The shard's balance; bigint: read as a string. May be negative (a void after a payout). */
  @Column('bigint', { name: 'balance_mills' })
  balanceMills!: string;

  @Column('integer', { name: 'last_seq' })
  lastSeq!: number;

  @Column('bytea', { name: 'last_hash' })
  lastHash!: Buffer;
}

