import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account erasure (CONTRACT §20, POST /api/me/delete): an erased account keeps its row, so the
 * money and moderation records that name its id (ledger, insertions, earnings, purchases, audit
 * entries) stay whole, but loses what identifies a person: `erased_at` is set and the e-mail,
 * display name and password hash are NULL (accounts_erased_fields: all three present while the
 * account lives, all three gone once erased). A NULL e-mail frees the address for a new sign-up
 * (the unique index on lower(email) ignores NULLs) and matches no search or sign-in.
 *
 * The wallet's remaining coins leave it with a new ledger kind, `forfeit` (a debit of the whole
 * balance, so the balance stays the ledger's sum).
 */
export class AddAccountErasure1796880000000 implements MigrationInterface {
  name = 'AddAccountErasure1796880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE accounts
        ADD COLUMN erased_at timestamptz,
        ALTER COLUMN email DROP NOT NULL,
        ALTER COLUMN password_hash DROP NOT NULL,
        ALTER COLUMN display_name DROP NOT NULL,
        ADD CONSTRAINT accounts_erased_fields CHECK (
          CASE WHEN erased_at IS NULL THEN email IS NOT NULL AND password_hash IS NOT NULL AND display_name IS NOT NULL
               ELSE email IS NULL AND password_hash IS NULL AND display_name IS NULL END
        );
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_kind,
        ADD CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit', 'purchase', 'refund', 'refund_reversal', 'dispute_won', 'void', 'forfeit'));
    `);
  }

  /** Refused (NOT NULL, then the ledger kind check) while an erased account or a `forfeit` entry exists: erasure cannot be undone. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_kind,
        ADD CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit', 'purchase', 'refund', 'refund_reversal', 'dispute_won', 'void'));
      ALTER TABLE accounts
        DROP CONSTRAINT accounts_erased_fields,
        ALTER COLUMN display_name SET NOT NULL,
        ALTER COLUMN password_hash SET NOT NULL,
        ALTER COLUMN email SET NOT NULL,
        DROP COLUMN erased_at;
    `);
  }
}
