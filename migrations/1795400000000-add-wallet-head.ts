import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The wallet row carries the head of its ledger chain: the running balance and seq of the latest
 * entry. Every append updates the head in the same statement as the entry, so the one row update
 * is both the lock that serialises appends and the fresh read of the balance (an UPDATE re-reads
 * a row that changed while it waited; a plain read in the same statement would not). Insert-coin
 * thus needs no separate lock round trip and never reads the ledger, whatever its length. The
 * ledger stays the record: `ledger_entries_wallet_seq_key` still refuses a forked chain, and the
 * invariant checker compares each head with the latest entry.
 */
export class AddWalletHead1795400000000 implements MigrationInterface {
  name = 'AddWalletHead1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE wallets
        ADD COLUMN balance bigint NOT NULL DEFAULT 0,
        ADD COLUMN last_seq integer NOT NULL DEFAULT 0;
      UPDATE wallets w SET balance = l.balance_after, last_seq = l.seq
        FROM (SELECT DISTINCT ON (wallet_id) wallet_id, seq, balance_after FROM ledger_entries ORDER BY wallet_id, seq DESC) l
       WHERE l.wallet_id = w.id;
      ALTER TABLE wallets
        ADD CONSTRAINT wallets_balance_non_negative CHECK (balance >= 0),
        ADD CONSTRAINT wallets_last_seq_non_negative CHECK (last_seq >= 0);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE wallets DROP COLUMN balance, DROP COLUMN last_seq;');
  }
}
