import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 26 item 13: the application role could lift a balance with the ledger unchanged and
 * delete the developers' earnings. Now, for every role, the owner included:
 * - a wallet's head (balance, last_seq) can only move to its newest ledger entry's (seq,
 *   balance_after), and a wallet opens empty. The check runs after the statement, so an append
 *   (head update and entry insert in one statement, wallet.repository.ts) sees its own entry; it
 *   reads one entry through ledger_entries_wallet_seq_key, and only when the head moved;
 * - insertions and developer_earnings keep their rows as they were written, like the voids
 *   (refuse_row_removal, 1796600000000).
 */
export class GuardBalancesAndEarnings1796730000000 implements MigrationInterface {
  name = 'GuardBalancesAndEarnings1796730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION wallets_balance_follows_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        newest_seq integer;
        newest_balance bigint;
      BEGIN
        SELECT seq, balance_after INTO newest_seq, newest_balance
          FROM ledger_entries WHERE wallet_id = NEW.id ORDER BY seq DESC LIMIT 1;
        IF NEW.last_seq <> COALESCE(newest_seq, 0) OR NEW.balance <> COALESCE(newest_balance, 0) THEN
          RAISE EXCEPTION 'wallet %: balance and last_seq (%, %) are not its newest ledger entry''s (%, %)',
            NEW.id, NEW.balance, NEW.last_seq, COALESCE(newest_balance, 0), COALESCE(newest_seq, 0)
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER wallets_balance_follows_ledger
        AFTER UPDATE OF balance, last_seq ON wallets
        FOR EACH ROW WHEN (NEW.balance IS DISTINCT FROM OLD.balance OR NEW.last_seq IS DISTINCT FROM OLD.last_seq)
        EXECUTE FUNCTION wallets_balance_follows_ledger();
      CREATE TRIGGER wallets_open_empty
        AFTER INSERT ON wallets
        FOR EACH ROW WHEN (NEW.balance <> 0 OR NEW.last_seq <> 0)
        EXECUTE FUNCTION wallets_balance_follows_ledger();

      CREATE TRIGGER insertions_append_only
        BEFORE UPDATE OR DELETE ON insertions
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER insertions_no_truncate
        BEFORE TRUNCATE ON insertions
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER developer_earnings_append_only
        BEFORE UPDATE OR DELETE ON developer_earnings
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER developer_earnings_no_truncate
        BEFORE TRUNCATE ON developer_earnings
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER developer_earnings_no_truncate ON developer_earnings;
      DROP TRIGGER developer_earnings_append_only ON developer_earnings;
      DROP TRIGGER insertions_no_truncate ON insertions;
      DROP TRIGGER insertions_append_only ON insertions;
      DROP TRIGGER wallets_open_empty ON wallets;
      DROP TRIGGER wallets_balance_follows_ledger ON wallets;
      DROP FUNCTION wallets_balance_follows_ledger();
    `);
  }
}
