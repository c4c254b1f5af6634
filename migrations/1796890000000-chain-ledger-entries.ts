import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 item 5: every wallet ledger entry carries a hash chaining it to the wallet's previous
 * entry, and the wallet's head keeps the newest hash beside its balance and seq (docs/database.md,
 * "Hash chains"). Existing entries are chained here, per wallet in seq order; the head's check
 * (wallets_balance_follows_ledger) now covers the hash too, and a wallet opens at the genesis hash.
 *
 * The encoding is copied from src/modules/wallet/ledger-append.ts as it is today (migrations import
 * nothing from src/): sha256(previous hash || the UTF-8 bytes of one line), the line being
 * 'arcade/wallet-ledger/v1', wallet_id, seq, kind, delta, balance_after, reason (quoted as an SQL
 * literal, NULL as NULL), purchase_id (NULL as nothing), created_at as microseconds since the epoch,
 * joined by '|'. Genesis: 32 zero bytes.
 */
const GENESIS = `'\\x${'00'.repeat(32)}'::bytea`;

const ENCODING = `convert_to(format('arcade/wallet-ledger/v1|%s|%s|%s|%s|%s|%L|%s|%s',
  e.wallet_id, e.seq, e.kind, e.delta, e.balance_after, e.reason, e.purchase_id, (extract(epoch FROM e.created_at) * 1000000)::bigint), 'UTF8')`;

export class ChainLedgerEntries1796890000000 implements MigrationInterface {
  name = 'ChainLedgerEntries1796890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE ledger_entries ADD COLUMN hash bytea;
      ALTER TABLE wallets ADD COLUMN last_hash bytea NOT NULL DEFAULT ${GENESIS};

      -- Each entry's encoding and its place in its wallet's chain (by seq: a gap, if any, stays for check:invariants to report).
      CREATE TEMP TABLE chain_ledger_entries AS
        SELECT e.id, e.wallet_id, row_number() OVER (PARTITION BY e.wallet_id ORDER BY e.seq) AS position, ${ENCODING} AS encoding
          FROM ledger_entries e;
      CREATE UNIQUE INDEX ON chain_ledger_entries (wallet_id, position);
      ANALYZE chain_ledger_entries;

      ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only;
      WITH RECURSIVE chain AS (
        SELECT c.id, c.wallet_id, c.position, sha256(${GENESIS} || c.encoding) AS hash
          FROM chain_ledger_entries c WHERE c.position = 1
        UNION ALL
        SELECT c.id, c.wallet_id, c.position, sha256(chain.hash || c.encoding)
          FROM chain JOIN chain_ledger_entries c ON c.wallet_id = chain.wallet_id AND c.position = chain.position + 1
      )
      UPDATE ledger_entries e SET hash = chain.hash FROM chain WHERE e.id = chain.id;
      ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only;
      DROP TABLE chain_ledger_entries;

      ALTER TABLE ledger_entries
        ALTER COLUMN hash SET NOT NULL,
        ADD CONSTRAINT ledger_entries_hash_length CHECK (octet_length(hash) = 32);

      UPDATE wallets w SET last_hash = l.hash
        FROM (SELECT DISTINCT ON (wallet_id) wallet_id, hash FROM ledger_entries ORDER BY wallet_id, seq DESC) l
       WHERE l.wallet_id = w.id;
      ALTER TABLE wallets ADD CONSTRAINT wallets_last_hash_length CHECK (octet_length(last_hash) = 32);

      -- The head is (balance, last_seq, last_hash) of the newest entry; (0, 0, genesis) with none.
      CREATE OR REPLACE FUNCTION wallets_balance_follows_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        newest_seq integer;
        newest_balance bigint;
        newest_hash bytea;
      BEGIN
        SELECT seq, balance_after, hash INTO newest_seq, newest_balance, newest_hash
          FROM ledger_entries WHERE wallet_id = NEW.id ORDER BY seq DESC LIMIT 1;
        IF NEW.last_seq <> COALESCE(newest_seq, 0) OR NEW.balance <> COALESCE(newest_balance, 0) THEN
          RAISE EXCEPTION 'wallet %: balance and last_seq (%, %) are not its newest ledger entry''s (%, %)',
            NEW.id, NEW.balance, NEW.last_seq, COALESCE(newest_balance, 0), COALESCE(newest_seq, 0)
            USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.last_hash <> COALESCE(newest_hash, ${GENESIS}) THEN
          RAISE EXCEPTION 'wallet %: last_hash % is not its newest ledger entry''s (%)',
            NEW.id, encode(NEW.last_hash, 'hex'), encode(COALESCE(newest_hash, ${GENESIS}), 'hex')
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$;
      DROP TRIGGER wallets_balance_follows_ledger ON wallets;
      CREATE TRIGGER wallets_balance_follows_ledger
        AFTER UPDATE OF balance, last_seq, last_hash ON wallets
        FOR EACH ROW WHEN (NEW.balance IS DISTINCT FROM OLD.balance OR NEW.last_seq IS DISTINCT FROM OLD.last_seq
                           OR NEW.last_hash IS DISTINCT FROM OLD.last_hash)
        EXECUTE FUNCTION wallets_balance_follows_ledger();
      DROP TRIGGER wallets_open_empty ON wallets;
      CREATE TRIGGER wallets_open_empty
        AFTER INSERT ON wallets
        FOR EACH ROW WHEN (NEW.balance <> 0 OR NEW.last_seq <> 0 OR NEW.last_hash <> ${GENESIS})
        EXECUTE FUNCTION wallets_balance_follows_ledger();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER wallets_open_empty ON wallets;
      DROP TRIGGER wallets_balance_follows_ledger ON wallets;
      CREATE OR REPLACE FUNCTION wallets_balance_follows_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
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
      ALTER TABLE wallets DROP COLUMN last_hash;
      ALTER TABLE ledger_entries DROP COLUMN hash;
    `);
  }
}
