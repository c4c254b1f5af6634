import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * The head of a developer's ledger (CONTRACT §22), like a wallet's: the newest entry's running
 * balance in mills, seq and hash. Created by the developer's first entry; a trigger
 * (developer_balances_follow_ledger) refuses any head that is not its newest entry's, and rows are
 * never deleted.
 */
@Entity('developer_balances')
@Check('developer_balances_last_seq_positive', 'last_seq >= 1')
@Check('developer_balances_last_hash_length', 'octet_length(last_hash) = 32')
export class DeveloperBalance {
  @PrimaryColumn('uuid', { name: 'developer_id', primaryKeyConstraintName: 'developer_balances_pkey' })
  @ForeignKey('developers', { name: 'developer_balances_developer_id_fkey' })
  developerId!: string;

  /** bigint: read as a string. May be negative (a void after a payout). */
  @Column('bigint', { name: 'balance_mills' })
  balanceMills!: string;

  @Column('integer', { name: 'last_seq' })
  lastSeq!: number;

  @Column('bytea', { name: 'last_hash' })
  lastHash!: Buffer;
}

