import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 item 1 (CONTRACT §22): the developer ledger. developer_ledger_entries is append-only
 * like ledger_entries (UPDATE, DELETE and TRUNCATE refused to every role), in mills, kinds earning
 * (+), void (−), payout (−) and payout_reversal (+). A developer's ledger is SHARDS chains (shards,
 * docs/database.md "Developer ledger shards"), each entry hash-chained to the previous one of its
 * shard; developer_balances keeps one head per shard (balance, last_seq, last_hash), created for
 * every developer (here for those that exist, by a trigger for new ones) at (0, 0, genesis), and a
 * trigger refuses a head that is not its newest entry's. The developer's balance is the sum of its
 * shards'. An earning or a void goes to its wallet's shard: the last byte of the wallet's uuid mod
 * SHARDS (src/modules/wallet/ledger-append.ts, developerShardSql); payouts to shard 0.
 *
 * Existing earnings and voids move in: each to its wallet's shard (the wallet of the insertion's
 * debit / of the void's entry), per shard in time order (an earning at its
 * developer_earnings.created_at, a void at its insertion_voids.voided_at; on equal times earnings
 * first, then by id / the void's ledger entry id), seq from 1, running balances, chained; the heads
 * are set from the newest entries. An earning or void entry carries its insertion's game, coins and
 * gross mills: the earning entry becomes the developer's record of the insertion, and
 * developer_earnings (its rows moved in, with their created_at) becomes a view of the earning entries
 * with the same columns (read-only to the application role), so insert-coin writes one row for the
 * developer, not two, and takes no share lock on the developer's and the game's rows (the old table's
 * foreign keys). insertion_voids stays (reason, who, the wallet's void entry).
 *
 * The encoding is copied from src/modules/wallet/ledger-append.ts as it is today: sha256(previous ||
 * the UTF-8 bytes of one line), the line being 'arcade/developer-ledger/v1', developer_id, shard, seq,
 * kind, amount_mills, balance_after_mills, insertion_id, game_id, coins, gross_mills, payout_id (NULL
 * as nothing), created_at as microseconds since the epoch, joined by '|'. Genesis: 32 zero bytes.
 */
const GENESIS = `'\\x${'00'.repeat(32)}'::bytea`;
/** DEVELOPER_LEDGER_SHARDS as of this migration. */
const SHARDS = 256;
const shardOf = (wallet: string) => `get_byte(uuid_send(${wallet}), 15) % ${SHARDS}`;

const ENCODING = `convert_to(format('arcade/developer-ledger/v1|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s',
  m.developer_id, m.shard, m.seq, m.kind, m.amount_mills, m.balance_after_mills, m.insertion_id, m.game_id, m.coins, m.gross_mills,
  NULL, (extract(epoch FROM m.created_at) * 1000000)::bigint), 'UTF8')`;

export class AddDeveloperLedger1796900000000 implements MigrationInterface {
  name = 'AddDeveloperLedger1796900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- No foreign keys to developers or games (each would share-lock a row every insert-coin shares):
      -- an entry is written only from its shard's head (whose developer_id is a foreign key), with
      -- its insertion (whose game_id is one), and check:invariants holds the entry to its insertion.
      CREATE TABLE developer_ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY,
        developer_id uuid NOT NULL,
        shard smallint NOT NULL,
        seq integer NOT NULL,
        kind text NOT NULL,
        amount_mills bigint NOT NULL,
        balance_after_mills bigint NOT NULL,
        insertion_id uuid,
        game_id uuid,
        coins integer,
        gross_mills bigint,
        payout_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        hash bytea NOT NULL,
        CONSTRAINT developer_ledger_entries_pkey PRIMARY KEY (id),
        CONSTRAINT developer_ledger_entries_developer_shard_seq_key UNIQUE (developer_id, shard, seq),
        CONSTRAINT developer_ledger_entries_shard_range CHECK (shard >= 0 AND shard < ${SHARDS}),
        CONSTRAINT developer_ledger_entries_seq_positive CHECK (seq >= 1),
        CONSTRAINT developer_ledger_entries_amount_non_zero CHECK (amount_mills <> 0),
        CONSTRAINT developer_ledger_entries_kind CHECK (kind IN ('earning', 'void', 'payout', 'payout_reversal')),
        CONSTRAINT developer_ledger_entries_kind_sign CHECK ((kind IN ('earning', 'payout_reversal')) = (amount_mills > 0)),
        CONSTRAINT developer_ledger_entries_insertion_link CHECK ((kind IN ('earning', 'void')) = (insertion_id IS NOT NULL)),
        CONSTRAINT developer_ledger_entries_insertion_fields CHECK ((insertion_id IS NOT NULL) = (game_id IS NOT NULL AND coins IS NOT NULL AND gross_mills IS NOT NULL) AND (insertion_id IS NOT NULL) = (game_id IS NOT NULL OR coins IS NOT NULL OR gross_mills IS NOT NULL)),
        CONSTRAINT developer_ledger_entries_insertion_amounts CHECK (coins >= 1 AND gross_mills = coins * 250 AND abs(amount_mills) * 10 = gross_mills * 7),
        CONSTRAINT developer_ledger_entries_insertion_id_fkey FOREIGN KEY (insertion_id) REFERENCES insertions(id),
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
        shard smallint NOT NULL,
        balance_mills bigint NOT NULL,
        last_seq integer NOT NULL,
        last_hash bytea NOT NULL,
        CONSTRAINT developer_balances_pkey PRIMARY KEY (developer_id, shard),
        CONSTRAINT developer_balances_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers(id),
        CONSTRAINT developer_balances_shard_range CHECK (shard >= 0 AND shard < ${SHARDS}),
        CONSTRAINT developer_balances_last_seq_non_negative CHECK (last_seq >= 0),
        CONSTRAINT developer_balances_last_hash_length CHECK (octet_length(last_hash) = 32)
      );
      -- A head is its shard's newest entry's (balance, seq, hash), (0, 0, genesis) before the first.
      -- After the statement, so an append (head and entry in one statement) sees its entry; one index probe.
      CREATE FUNCTION developer_balances_follow_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        newest_seq integer;
        newest_balance bigint;
        newest_hash bytea;
      BEGIN
        SELECT seq, balance_after_mills, hash INTO newest_seq, newest_balance, newest_hash
          FROM developer_ledger_entries WHERE developer_id = NEW.developer_id AND shard = NEW.shard ORDER BY seq DESC LIMIT 1;
        IF NEW.last_seq <> COALESCE(newest_seq, 0) OR NEW.balance_mills <> COALESCE(newest_balance, 0) OR NEW.last_hash <> COALESCE(newest_hash, ${GENESIS}) THEN
          RAISE EXCEPTION 'developer % shard %: balance_mills, last_seq and last_hash (%, %, %) are not its newest ledger entry''s (%, %, %)',
            NEW.developer_id, NEW.shard, NEW.balance_mills, NEW.last_seq, encode(NEW.last_hash, 'hex'),
            COALESCE(newest_balance, 0), COALESCE(newest_seq, 0), encode(COALESCE(newest_hash, ${GENESIS}), 'hex')
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER developer_balances_follow_ledger
        AFTER UPDATE ON developer_balances
        FOR EACH ROW EXECUTE FUNCTION developer_balances_follow_ledger();
      -- A head opens empty (the trigger runs only for one that does not).
      CREATE TRIGGER developer_balances_open_empty
        AFTER INSERT ON developer_balances
        FOR EACH ROW WHEN (NEW.balance_mills <> 0 OR NEW.last_seq <> 0 OR NEW.last_hash <> ${GENESIS})
        EXECUTE FUNCTION developer_balances_follow_ledger();
      CREATE TRIGGER developer_balances_no_delete
        BEFORE DELETE ON developer_balances
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER developer_balances_no_truncate
        BEFORE TRUNCATE ON developer_balances
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();

      -- Every developer has its SHARDS heads from its creation, so an append is a plain UPDATE.
      CREATE FUNCTION developers_open_ledger_heads() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO developer_balances (developer_id, shard, balance_mills, last_seq, last_hash)
        SELECT NEW.id, s, 0, 0, ${GENESIS} FROM generate_series(0, ${SHARDS - 1}) s;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER developers_open_ledger_heads
        AFTER INSERT ON developers
        FOR EACH ROW EXECUTE FUNCTION developers_open_ledger_heads();

      -- Existing earnings and voids, per developer in time order, with running balances.
      CREATE TEMP TABLE move_developer_ledger AS
        SELECT m.*, row_number() OVER w AS seq, sum(m.amount_mills) OVER w AS balance_after_mills
          FROM (
            SELECT e.developer_id, ${shardOf('l.wallet_id')} AS shard, 'earning' AS kind, e.earned_mills AS amount_mills, e.insertion_id,
                   e.game_id, e.coins, e.gross_mills, e.created_at, 0 AS kind_order, e.id AS tie
              FROM developer_earnings e JOIN insertions i ON i.id = e.insertion_id JOIN ledger_entries l ON l.id = i.ledger_entry_id
            UNION ALL
            SELECT v.developer_id, ${shardOf('l.wallet_id')}, 'void', -v.earned_mills, v.insertion_id,
                   v.game_id, v.coins, v.gross_mills, v.voided_at, 1, v.ledger_entry_id
              FROM insertion_voids v JOIN ledger_entries l ON l.id = v.ledger_entry_id
          ) m
        WINDOW w AS (PARTITION BY m.developer_id, m.shard ORDER BY m.created_at, m.kind_order, m.tie ROWS UNBOUNDED PRECEDING);
      ALTER TABLE move_developer_ledger ADD COLUMN encoding bytea;
      UPDATE move_developer_ledger m SET encoding = ${ENCODING};
      CREATE UNIQUE INDEX ON move_developer_ledger (developer_id, shard, seq);
      ANALYZE move_developer_ledger;

      WITH RECURSIVE chain AS (
        SELECT m.developer_id, m.shard, m.seq, sha256(${GENESIS} || m.encoding) AS hash
          FROM move_developer_ledger m WHERE m.seq = 1
        UNION ALL
        SELECT m.developer_id, m.shard, m.seq, sha256(chain.hash || m.encoding)
          FROM chain JOIN move_developer_ledger m ON m.developer_id = chain.developer_id AND m.shard = chain.shard AND m.seq = chain.seq + 1
      )
      INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, insertion_id, game_id, coins, gross_mills, created_at, hash)
      SELECT m.developer_id, m.shard, m.seq, m.kind, m.amount_mills, m.balance_after_mills, m.insertion_id, m.game_id, m.coins, m.gross_mills, m.created_at, chain.hash
        FROM move_developer_ledger m JOIN chain ON chain.developer_id = m.developer_id AND chain.shard = m.shard AND chain.seq = m.seq
       ORDER BY m.developer_id, m.shard, m.seq;
      DROP TABLE move_developer_ledger;

      -- Every developer's heads: its shards' newest entries, (0, 0, genesis) for a shard with none.
      INSERT INTO developer_balances (developer_id, shard, balance_mills, last_seq, last_hash)
      SELECT d.id, s, COALESCE(n.balance_after_mills, 0), COALESCE(n.seq, 0), COALESCE(n.hash, ${GENESIS})
        FROM developers d CROSS JOIN generate_series(0, ${SHARDS - 1}) s
        LEFT JOIN LATERAL (SELECT balance_after_mills, seq, hash FROM developer_ledger_entries x
                            WHERE x.developer_id = d.id AND x.shard = s ORDER BY seq DESC LIMIT 1) n ON true;

      -- The earning entries are the developer's record of each insertion now: the table goes, a view
      -- with its columns stays for the earnings answers (its id is the entry's).
      DROP TABLE developer_earnings;
      CREATE VIEW developer_earnings AS
        SELECT id, insertion_id, developer_id, game_id, coins, gross_mills, amount_mills AS earned_mills, created_at
          FROM developer_ledger_entries WHERE kind = 'earning';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP VIEW developer_earnings;
      CREATE TABLE developer_earnings (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        insertion_id uuid NOT NULL REFERENCES insertions(id),
        developer_id uuid NOT NULL REFERENCES developers(id),
        game_id uuid NOT NULL REFERENCES games(id),
        coins integer NOT NULL,
        gross_mills bigint NOT NULL,
        earned_mills bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT developer_earnings_insertion_key UNIQUE (insertion_id),
        CONSTRAINT developer_earnings_amounts CHECK (coins >= 1 AND gross_mills = coins * 250 AND earned_mills * 10 = gross_mills * 7)
      );
      CREATE INDEX developer_earnings_developer_idx ON developer_earnings (developer_id, game_id);
      INSERT INTO developer_earnings (insertion_id, developer_id, game_id, coins, gross_mills, earned_mills, created_at)
      SELECT insertion_id, developer_id, game_id, coins, gross_mills, amount_mills, created_at
        FROM developer_ledger_entries WHERE kind = 'earning' ORDER BY id;
      CREATE TRIGGER developer_earnings_append_only
        BEFORE UPDATE OR DELETE ON developer_earnings
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER developer_earnings_no_truncate
        BEFORE TRUNCATE ON developer_earnings
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();
      DROP TRIGGER developers_open_ledger_heads ON developers;
      DROP FUNCTION developers_open_ledger_heads();
      DROP TABLE developer_balances;
      DROP FUNCTION developer_balances_follow_ledger();
      DROP TABLE developer_ledger_entries;
      DROP FUNCTION developer_ledger_entries_append_only();
    `);
  }
}
