import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger is append-only for everyone, its owner included: TRUNCATE (which skips the row
 * triggers that refuse UPDATE and DELETE) is refused by a statement trigger too, as it is for the
 * audit log (issue 14). Removing it takes a migration, not a slip at a psql prompt.
 */
export class BlockLedgerTruncate1796200000000 implements MigrationInterface {
  name = 'BlockLedgerTruncate1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TRIGGER ledger_entries_no_truncate
        BEFORE TRUNCATE ON ledger_entries
        FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_entries_no_truncate ON ledger_entries;');
  }
}
