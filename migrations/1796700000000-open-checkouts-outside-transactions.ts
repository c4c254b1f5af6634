import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The provider is called outside any transaction (CONTRACT §19.1): a purchase is recorded first,
 * its checkout opened at the provider next, and its address stored last, so a purchase has no
 * `checkout_url` while its checkout is opening, nor when the provider failed to open one.
 */
export class OpenCheckoutsOutsideTransactions1796700000000 implements MigrationInterface {
  name = 'OpenCheckoutsOutsideTransactions1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE purchases ALTER COLUMN checkout_url DROP NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE purchases SET checkout_url = '/checkout/' || id WHERE checkout_url IS NULL`);
    await q.query('ALTER TABLE purchases ALTER COLUMN checkout_url SET NOT NULL');
  }
}
