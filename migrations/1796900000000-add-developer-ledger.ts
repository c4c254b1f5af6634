import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 item 1 (CONTRACT §22): the developer ledger. developer_ledger_entries is append-only
 * like ledger_entries (UPDATE, DELETE and TRUNCATE refused to every role), in mills, kinds earning
 * (+), void (−), payout (−) and payout_reversal (+), each entry hash-chained to the developer's
 * previous one; developer_balances keeps each developer's head (balance, last_seq, last_hash), and
 * a trigger refuses a head that is not its newest entry's.
 *
 * Existing earnings and voids move in: per developer, in time order (an earning at its
 * developer_earnings.created_at, a void at its insertion_voids.voided_at; on equal times earnings
 * first, then by id / the void's ledger entry id), seq from 1, running balances, chained; the heads
 * are set from the newest entries. developer_earnings and insertion_voids stay as the per-insertion
 * records (coins, gross, game) that the earnings answers read.
 *
 * The encoding is copied from src/modules/wallet/ledger-append.ts as it is today: sha256(previous ||
 * field || ...), each field its length as int4 (-1 for NULL) and its text's UTF-8 bytes:
 * 'arcade/developer-ledger/v1', developer_id, seq, kind, amount_mills, balance_after_mills,
 * insertion_id, payout_id, created_at as microseconds since the epoch. Genesis: 32 zero bytes.
 */
const GENESIS = `'\\x${'00'.repeat(32)}'::bytea`;

function field(text: string): string {
  return `COALESCE(int4send(octet_length(${text})) || convert_to(${text}, 'UTF8'), int4send(-1))`;
}

const ENCODING = [
  "'arcade/developer-ledger/v1'::text",
  'm.developer_id::text',
  'm.seq::text',
  'm.kind::text',
  'm.amount_mills::text',
  'm.balance_after_mills::text',
  'm.insertion_id::text',
  'NULL::text',
  '((extract(epoch FROM m.created_at) * 1000000)::bigint)::text',
]
  .map(field)
  .join(' || ');

export class AddDeveloperLedger1796900000000 implements MigrationInterface {
  name = 'AddDeveloperLedger1796900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE developer_ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY,
        developer_id uuid NOT NULL,
        seq integer NOT NULL,
        kind text NOT NULL,
        amount_mills bigint NOT NULL,
        balance_after_mills bigint NOT NULL,
        insertion_id uuid,
        payout_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        hash bytea NOT NULL,
        CONSTRAINT developer_ledger_entries_pkey PRIMARY KEY (id),
        CONSTRAINT developer_ledger_entries_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers(id),
        CONSTRAINT developer_ledger_entries_insertion_id_fkey FOREIGN KEY (insertion_id) REFERENCES insertions(id),
        CONSTRAINT developer_ledger_entries_developer_seq_key UNIQUE (developer_id, seq),
        CONSTRAINT developer_ledger_entries_seq_positive CHECK (seq >= 1),
        CONSTRAINT developer_ledger_entries_amount_non_zero CHECK (amount_mills <> 0),
        CONSTRAINT developer_ledger_entries_kind CHECK (kind IN ('earning', 'void', 'payout', 'payout_reversal')),
        CONSTRAINT developer_ledger_entries_kind_sign CHECK ((kind IN ('earning', 'payout_reversal')) = (amount_mills > 0)),
        CONSTRAINT developer_ledger_entries_insertion_link CHECK ((kind IN ('earning', 'void')) = (insertion_id IS NOT NULL)),
        CONSTRAINT developer_ledger_entries_payout_link CHECK ((kind IN ('payout', 'payout_reversal')) = (payout_id IS NOT NULL)),
        CONSTRAINT developer_ledger_entries_hash_length CHECK (octet_length(hash) = 32)
      );
      CREATE UNIQUE INDEX developer_ledger_entries_earning_key ON developer_ledger_entries (insertion_id) WHERE kind = 'earning';
      CREATE UNIQUE INDEX developer_ledger_entries_void_key ON developer_ledger_entries (insertion_id) WHERE kind = 'void';
      CREATE UNIQUE INDEX developer_ledger_entries_payout_key ON developer_ledger_entries (payout_id) WHERE kind = 'payout';
      CREATE UNIQUE INDEX developer_ledger_entries_payout_reversal_key ON developer_ledger_entries (payout_id) WHERE kind = 'payout_reversal';

      CREATE FUNCTION developer_ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'developer_ledger_entries is append-only: % is not allowed', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$;
      CREATE TRIGGER developer_ledger_entries_append_only
        BEFORE UPDATE OR DELETE ON developer_ledger_entries
        FOR EACH ROW EXECUTE FUNCTION developer_ledger_entries_append_only();
      CREATE TRIGGER developer_ledger_entries_no_truncate
        BEFORE TRUNCATE ON developer_ledger_entries
        FOR EACH STATEMENT EXECUTE FUNCTION developer_ledger_entries_append_only();

      CREATE TABLE developer_balances (
        developer_id uuid NOT NULL,
        balance_mills bigint NOT NULL,
        last_seq integer NOT NULL,
        last_hash bytea NOT NULL,
        CONSTRAINT developer_balances_pkey PRIMARY KEY (developer_id),
        CONSTRAINT developer_balances_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers(id),
        CONSTRAINT developer_balances_last_seq_positive CHECK (last_seq >= 1),
        CONSTRAINT developer_balances_last_hash_length CHECK (octet_length(last_hash) = 32)
      );
      -- A head is its newest entry's (balance, seq, hash). After the statement, so an append (head and entry in one statement) sees its entry.
      CREATE FUNCTION developer_balances_follow_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        newest developer_ledger_entries%ROWTYPE;
      BEGIN
        SELECT * INTO newest FROM developer_ledger_entries WHERE developer_id = NEW.developer_id ORDER BY seq DESC LIMIT 1;
        IF newest.id IS NULL OR NEW.last_seq <> newest.seq OR NEW.balance_mills <> newest.balance_after_mills OR NEW.last_hash <> newest.hash THEN
          RAISE EXCEPTION 'developer %: balance_mills, last_seq and last_hash (%, %, %) are not its newest ledger entry''s (%, %, %)',
            NEW.developer_id, NEW.balance_mills, NEW.last_seq, encode(NEW.last_hash, 'hex'),
            newest.balance_after_mills, newest.seq, encode(newest.hash, 'hex')
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER developer_balances_follow_ledger
        AFTER INSERT OR UPDATE ON developer_balances
        FOR EACH ROW EXECUTE FUNCTION developer_balances_follow_ledger();
      CREATE TRIGGER developer_balances_no_delete
        BEFORE DELETE ON developer_balances
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER developer_balances_no_truncate
        BEFORE TRUNCATE ON developer_balances
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();

      -- Existing earnings and voids, per developer in time order, with running balances.
      CREATE TEMP TABLE move_developer_ledger AS
        SELECT m.*, row_number() OVER w AS seq, sum(m.amount_mills) OVER w AS balance_after_mills
          FROM (
            SELECT developer_id, 'earning' AS kind, earned_mills AS amount_mills, insertion_id, created_at, 0 AS kind_order, id AS tie
              FROM developer_earnings
            UNION ALL
            SELECT developer_id, 'void', -earned_mills, insertion_id, voided_at, 1, ledger_entry_id
              FROM insertion_voids
          ) m
        WINDOW w AS (PARTITION BY m.developer_id ORDER BY m.created_at, m.kind_order, m.tie ROWS UNBOUNDED PRECEDING);
      ALTER TABLE move_developer_ledger ADD COLUMN encoding bytea;
      UPDATE move_developer_ledger m SET encoding = ${ENCODING};
      CREATE UNIQUE INDEX ON move_developer_ledger (developer_id, seq);
      ANALYZE move_developer_ledger;

      WITH RECURSIVE chain AS (
        SELECT m.developer_id, m.seq, sha256(${GENESIS} || m.encoding) AS hash
          FROM move_developer_ledger m WHERE m.seq = 1
        UNION ALL
        SELECT m.developer_id, m.seq, sha256(chain.hash || m.encoding)
          FROM chain JOIN move_developer_ledger m ON m.developer_id = chain.developer_id AND m.seq = chain.seq + 1
      )
      INSERT INTO developer_ledger_entries (developer_id, seq, kind, amount_mills, balance_after_mills, insertion_id, created_at, hash)
      SELECT m.developer_id, m.seq, m.kind, m.amount_mills, m.balance_after_mills, m.insertion_id, m.created_at, chain.hash
        FROM move_developer_ledger m JOIN chain ON chain.developer_id = m.developer_id AND chain.seq = m.seq
       ORDER BY m.developer_id, m.seq;
      DROP TABLE move_developer_ledger;

      INSERT INTO developer_balances (developer_id, balance_mills, last_seq, last_hash)
      SELECT DISTINCT ON (developer_id) developer_id, balance_after_mills, seq, hash
        FROM developer_ledger_entries ORDER BY developer_id, seq DESC;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE developer_balances;
      DROP FUNCTION developer_balances_follow_ledger();
      DROP TABLE developer_ledger_entries;
      DROP FUNCTION developer_ledger_entries_append_only();
    `);
  }
}
