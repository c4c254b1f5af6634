import { Check, Column, Entity, ForeignKey, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PayoutMethodKind } from './payouts.rules';

/** How a developer is paid (CONTRACT §22): the sandbox (an admin marks it paid), or a Stripe Connect account. One per developer. */
@Entity('payout_methods')
@Check('payout_methods_kind', "kind IN ('sandbox', 'stripe')")
@Check('payout_methods_account', "(kind = 'stripe') = (account_id IS NOT NULL AND account_id ~ '^acct_[A-Za-z0-9]+$')")
export class PayoutMethod {
  @PrimaryColumn('uuid', { name: 'developer_id', primaryKeyConstraintName: 'payout_methods_pkey' })
  @ForeignKey('developers', { name: 'payout_methods_developer_id_fkey' })
  developerId!: string;

  @Column('text')
  kind!: PayoutMethodKind;

  /** The Stripe Connect account (`acct_…`); null for the sandbox. */
  @Column('text', { name: 'account_id', nullable: true })
  accountId!: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}
