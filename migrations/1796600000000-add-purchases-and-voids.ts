import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Buying coins, refunds, disputes and voids (CONTRACT §19). What must never happen is refused by
 * the database:
 * - a purchase credited twice, or refunded twice: the ledger's purchase and refund entries name
 *   their purchase, at most one of each kind per purchase (partial unique indexes);
 * - a provider event applied twice: payment_events' primary key (provider, event id), claimed in
 *   the transaction that moves the money;
 * - a purchase moving backwards in its life (paid → pending, refunded → paid...): a trigger;
 * - an insertion voided twice: insertion_voids' primary key; voids are append-only like the ledger.
 * The ledger's new CHECKs scan the ledger once under the migration's lock (about 0.1 s per million
 * entries; every new column is NULL).
 */
export class AddPurchasesAndVoids1796600000000 implements MigrationInterface {
  name = 'AddPurchasesAndVoids1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE purchases (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id),
        wallet_id uuid NOT NULL REFERENCES wallets(id),
        pack_id text NOT NULL,
        coins integer NOT NULL,
        price_mills bigint NOT NULL,
        provider text NOT NULL,
        checkout_url text NOT NULL,
        provider_checkout_ref text,
        provider_payment_ref text,
        status text NOT NULL DEFAULT 'pending',
        unrecovered_coins integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT purchases_coins_range CHECK (coins BETWEEN 1 AND 100000),
        CONSTRAINT purchases_price CHECK (price_mills = coins * 250),
        CONSTRAINT purchases_provider CHECK (provider IN ('sandbox', 'stripe')),
        CONSTRAINT purchases_status CHECK (status IN ('pending', 'paid', 'failed', 'refunded', 'disputed')),
        CONSTRAINT purchases_unrecovered_range CHECK (unrecovered_coins BETWEEN 0 AND coins),
        CONSTRAINT purchases_unrecovered_after_take_back CHECK (unrecovered_coins = 0 OR status IN ('refunded', 'disputed')),
        CONSTRAINT purchases_checkout_ref_key UNIQUE (provider, provider_checkout_ref),
        CONSTRAINT purchases_payment_ref_key UNIQUE (provider, provider_payment_ref)
      );
      CREATE INDEX purchases_account_idx ON purchases (account_id, created_at DESC, id DESC);

      -- pending → paid | failed; failed → paid; paid → refunded | disputed; refunded → disputed.
      CREATE FUNCTION purchases_status_forward() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status <> OLD.status AND NOT (
             (OLD.status = 'pending' AND NEW.status IN ('paid', 'failed'))
          OR (OLD.status = 'failed' AND NEW.status = 'paid')
          OR (OLD.status = 'paid' AND NEW.status IN ('refunded', 'disputed'))
          OR (OLD.status = 'refunded' AND NEW.status = 'disputed')
        ) THEN
          RAISE EXCEPTION 'purchase % cannot go from % to %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.id <> OLD.id OR NEW.account_id <> OLD.account_id OR NEW.wallet_id <> OLD.wallet_id
           OR NEW.coins <> OLD.coins OR NEW.price_mills <> OLD.price_mills OR NEW.provider <> OLD.provider THEN
          RAISE EXCEPTION 'purchase %: what was bought, by whom and through whom never changes', OLD.id
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER purchases_status_forward
        BEFORE UPDATE ON purchases
        FOR EACH ROW EXECUTE FUNCTION purchases_status_forward();
      CREATE FUNCTION refuse_row_removal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% keeps its rows: % is not allowed', TG_TABLE_NAME, TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$;
      CREATE TRIGGER purchases_no_delete
        BEFORE DELETE ON purchases
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER purchases_no_truncate
        BEFORE TRUNCATE ON purchases
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();

      -- Every verified provider event, once: the claim that makes each event id apply at most once.
      -- kind is what the event means here; purchase_ref and payment_ref are what it named, kept so
      -- that an event that came before its purchase was known can be applied once it is.
      CREATE TABLE payment_events (
        provider text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        kind text NOT NULL,
        purchase_id uuid REFERENCES purchases(id),
        purchase_ref text,
        payment_ref text,
        outcome text NOT NULL DEFAULT 'received',
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, event_id),
        CONSTRAINT payment_events_provider CHECK (provider IN ('sandbox', 'stripe')),
        CONSTRAINT payment_events_event_id_length CHECK (char_length(event_id) BETWEEN 1 AND 255),
        CONSTRAINT payment_events_kind CHECK (kind IN ('payment_succeeded', 'payment_failed', 'refund', 'dispute', 'other')),
        CONSTRAINT payment_events_outcome CHECK (outcome IN ('received', 'applied', 'deferred', 'ignored', 'unknown_purchase'))
      );
      CREATE INDEX payment_events_purchase_idx ON payment_events (purchase_id) WHERE purchase_id IS NOT NULL;
      CREATE INDEX payment_events_unresolved_idx ON payment_events (provider, payment_ref) WHERE purchase_id IS NULL;

      ALTER TABLE ledger_entries ADD COLUMN purchase_id uuid;
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_kind,
        DROP CONSTRAINT ledger_entries_kind_sign,
        ADD CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit', 'purchase', 'refund', 'void')),
        ADD CONSTRAINT ledger_entries_kind_sign CHECK ((kind IN ('credit', 'purchase', 'void')) = (delta > 0)),
        ADD CONSTRAINT ledger_entries_purchase_link CHECK ((kind IN ('purchase', 'refund')) = (purchase_id IS NOT NULL)),
        ADD CONSTRAINT ledger_entries_purchase_id_fkey FOREIGN KEY (purchase_id) REFERENCES purchases(id);
      CREATE UNIQUE INDEX ledger_entries_purchase_credit_key ON ledger_entries (purchase_id) WHERE kind = 'purchase';
      CREATE UNIQUE INDEX ledger_entries_purchase_refund_key ON ledger_entries (purchase_id) WHERE kind = 'refund';

      -- A voided insertion: its coins back to the player (the ledger entry), its earning taken off
      -- the developer on the day of the void (the amounts mirror the insertion's earning).
      CREATE TABLE insertion_voids (
        insertion_id uuid PRIMARY KEY REFERENCES insertions(id),
        ledger_entry_id bigint NOT NULL REFERENCES ledger_entries(id),
        developer_id uuid NOT NULL REFERENCES developers(id),
        game_id uuid NOT NULL REFERENCES games(id),
        coins integer NOT NULL,
        gross_mills bigint NOT NULL,
        earned_mills bigint NOT NULL,
        reason text NOT NULL,
        voided_by uuid NOT NULL REFERENCES accounts(id),
        voided_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT insertion_voids_ledger_entry_key UNIQUE (ledger_entry_id),
        CONSTRAINT insertion_voids_amounts CHECK (coins >= 1 AND gross_mills = coins * 250 AND earned_mills * 10 = gross_mills * 7),
        CONSTRAINT insertion_voids_reason_length CHECK (char_length(reason) BETWEEN 1 AND 200)
      );
      CREATE INDEX insertion_voids_developer_idx ON insertion_voids (developer_id, game_id, voided_at);
      CREATE TRIGGER insertion_voids_append_only
        BEFORE UPDATE OR DELETE ON insertion_voids
        FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER insertion_voids_no_truncate
        BEFORE TRUNCATE ON insertion_voids
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE insertion_voids;
      DROP INDEX ledger_entries_purchase_credit_key;
      DROP INDEX ledger_entries_purchase_refund_key;
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_purchase_id_fkey,
        DROP CONSTRAINT ledger_entries_purchase_link,
        DROP CONSTRAINT ledger_entries_kind,
        DROP CONSTRAINT ledger_entries_kind_sign,
        ADD CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit')),
        ADD CONSTRAINT ledger_entries_kind_sign CHECK ((kind = 'credit') = (delta > 0));
      ALTER TABLE ledger_entries DROP COLUMN purchase_id;
      DROP TABLE payment_events;
      DROP TABLE purchases;
      DROP FUNCTION purchases_status_forward();
      DROP FUNCTION refuse_row_removal();
    `);
  }
}
