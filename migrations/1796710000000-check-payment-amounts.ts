import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money with a real provider (CONTRACT §19.1, issue 26 item 4):
 * - each payment event keeps what the provider said: its amount, the charge's refunds so far, the
 *   currency, livemode, the checkout and the refund or dispute it names, and a SHA-256 of its raw
 *   body; an event id seen again with another body is kept in payment_event_conflicts;
 * - events whose amount, currency or mode do not match are recorded as `*_mismatch` and move nothing;
 * - partial refunds: purchases keep the cents refunded so far (the status is `refunded` exactly when
 *   they reach the price); a purchase may have several `refund` entries, and a refund the provider
 *   reports failed gives coins back (ledger kind `refund_reversal`);
 * - dispute outcomes: the purchase keeps where it was before its dispute, the outcome, and what the
 *   dispute took and could not take; a won dispute credits that back once (ledger kind
 *   `dispute_won`) and is the only way back from `disputed` (the trigger).
 * Existing purchases are filled in from their status (a disputed one that had a refund applied was
 * refunded before its dispute).
 */
export class CheckPaymentAmounts1796710000000 implements MigrationInterface {
  name = 'CheckPaymentAmounts1796710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_events
        ADD COLUMN body_hash text,
        ADD COLUMN amount_cents bigint,
        ADD COLUMN refunded_total_cents bigint,
        ADD COLUMN currency text,
        ADD COLUMN livemode boolean,
        ADD COLUMN checkout_ref text,
        ADD COLUMN object_ref text,
        DROP CONSTRAINT payment_events_kind,
        DROP CONSTRAINT payment_events_outcome,
        ADD CONSTRAINT payment_events_kind CHECK (kind IN ('payment_succeeded', 'payment_failed', 'refund', 'refund_reversal', 'dispute', 'dispute_won', 'dispute_lost', 'other')),
        ADD CONSTRAINT payment_events_outcome CHECK (outcome IN ('received', 'applied', 'deferred', 'ignored', 'unknown_purchase', 'amount_mismatch', 'currency_mismatch', 'livemode_mismatch')),
        ADD CONSTRAINT payment_events_body_hash CHECK (body_hash ~ '^[0-9a-f]{64}$'),
        ADD CONSTRAINT payment_events_amounts CHECK (amount_cents >= 0 AND refunded_total_cents >= 0);
      CREATE INDEX payment_events_object_ref_idx ON payment_events (provider, object_ref) WHERE object_ref IS NOT NULL;

      -- A delivery whose event id was already recorded with another body: it changed nothing.
      CREATE TABLE payment_event_conflicts (
        provider text NOT NULL,
        event_id text NOT NULL,
        body_hash text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, event_id, body_hash),
        CONSTRAINT payment_event_conflicts_event_fkey FOREIGN KEY (provider, event_id) REFERENCES payment_events (provider, event_id),
        CONSTRAINT payment_event_conflicts_body_hash CHECK (body_hash ~ '^[0-9a-f]{64}$')
      );

      ALTER TABLE purchases
        ADD COLUMN refunded_cents integer NOT NULL DEFAULT 0,
        ADD COLUMN disputed_from text,
        ADD COLUMN dispute_outcome text,
        ADD COLUMN dispute_taken_coins integer NOT NULL DEFAULT 0,
        ADD COLUMN dispute_unrecovered_coins integer NOT NULL DEFAULT 0;
      UPDATE purchases SET refunded_cents = coins * 25 WHERE status = 'refunded';
      UPDATE purchases p SET disputed_from = CASE WHEN refunded THEN 'refunded' ELSE 'paid' END,
                             refunded_cents = CASE WHEN refunded THEN p.coins * 25 ELSE 0 END,
                             dispute_taken_coins = CASE WHEN refunded THEN 0 ELSE taken END,
                             dispute_unrecovered_coins = CASE WHEN refunded THEN 0 ELSE p.unrecovered_coins END
        FROM (SELECT d.id,
                     EXISTS (SELECT 1 FROM payment_events e WHERE e.purchase_id = d.id AND e.kind = 'refund' AND e.outcome = 'applied') AS refunded,
                     (SELECT COALESCE(-SUM(l.delta), 0) FROM ledger_entries l WHERE l.purchase_id = d.id AND l.kind = 'refund')::integer AS taken
                FROM purchases d WHERE d.status = 'disputed') old
       WHERE p.id = old.id;
      ALTER TABLE purchases
        DROP CONSTRAINT purchases_unrecovered_after_take_back,
        ADD CONSTRAINT purchases_unrecovered_after_take_back CHECK (unrecovered_coins = 0 OR refunded_cents > 0 OR disputed_from IS NOT NULL),
        ADD CONSTRAINT purchases_refunded_range CHECK (refunded_cents BETWEEN 0 AND coins * 25),
        ADD CONSTRAINT purchases_refunded_status CHECK (CASE status
          WHEN 'refunded' THEN refunded_cents = coins * 25
          WHEN 'paid' THEN refunded_cents < coins * 25
          WHEN 'disputed' THEN true
          ELSE refunded_cents = 0 END),
        ADD CONSTRAINT purchases_disputed_from CHECK (disputed_from IN ('paid', 'refunded')),
        ADD CONSTRAINT purchases_dispute_outcome CHECK (dispute_outcome IN ('won', 'lost')),
        ADD CONSTRAINT purchases_dispute_state CHECK (
          (status = 'disputed') = (disputed_from IS NOT NULL AND dispute_outcome IS DISTINCT FROM 'won')
          AND (disputed_from IS NOT NULL OR (dispute_outcome IS NULL AND dispute_taken_coins = 0 AND dispute_unrecovered_coins = 0))),
        ADD CONSTRAINT purchases_dispute_coins CHECK (dispute_taken_coins >= 0 AND dispute_unrecovered_coins BETWEEN 0 AND unrecovered_coins);

      -- pending → paid | failed; failed → paid; paid → refunded | disputed; refunded → disputed;
      -- refunded → paid when a refund failed (less refunded); disputed → where it was, when won.
      -- A purchase is disputed once, and its outcome is final.
      CREATE OR REPLACE FUNCTION purchases_status_forward() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status <> OLD.status AND NOT (
             (OLD.status = 'pending' AND NEW.status IN ('paid', 'failed'))
          OR (OLD.status = 'failed' AND NEW.status = 'paid')
          OR (OLD.status = 'paid' AND NEW.status IN ('refunded', 'disputed'))
          OR (OLD.status = 'refunded' AND NEW.status = 'disputed')
          OR (OLD.status = 'refunded' AND NEW.status = 'paid' AND NEW.refunded_cents < OLD.refunded_cents)
          OR (OLD.status = 'disputed' AND NEW.status = OLD.disputed_from AND NEW.dispute_outcome = 'won')
        ) THEN
          RAISE EXCEPTION 'purchase % cannot go from % to %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.id <> OLD.id OR NEW.account_id <> OLD.account_id OR NEW.wallet_id <> OLD.wallet_id
           OR NEW.coins <> OLD.coins OR NEW.price_mills <> OLD.price_mills OR NEW.provider <> OLD.provider THEN
          RAISE EXCEPTION 'purchase %: what was bought, by whom and through whom never changes', OLD.id
            USING ERRCODE = 'check_violation';
        END IF;
        IF (OLD.disputed_from IS NOT NULL AND NEW.disputed_from IS DISTINCT FROM OLD.disputed_from)
           OR (OLD.dispute_outcome IS NOT NULL AND NEW.dispute_outcome IS DISTINCT FROM OLD.dispute_outcome) THEN
          RAISE EXCEPTION 'purchase %: a purchase is disputed once and its outcome is final', OLD.id
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END
      $$;

      DROP INDEX ledger_entries_purchase_refund_key;
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_kind,
        DROP CONSTRAINT ledger_entries_kind_sign,
        DROP CONSTRAINT ledger_entries_purchase_link,
        ADD CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit', 'purchase', 'refund', 'refund_reversal', 'dispute_won', 'void')),
        ADD CONSTRAINT ledger_entries_kind_sign CHECK ((kind IN ('credit', 'purchase', 'refund_reversal', 'dispute_won', 'void')) = (delta > 0)),
        ADD CONSTRAINT ledger_entries_purchase_link CHECK ((kind IN ('purchase', 'refund', 'refund_reversal', 'dispute_won')) = (purchase_id IS NOT NULL));
      CREATE UNIQUE INDEX ledger_entries_purchase_dispute_won_key ON ledger_entries (purchase_id) WHERE kind = 'dispute_won';
      CREATE INDEX ledger_entries_purchase_idx ON ledger_entries (purchase_id) WHERE purchase_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX ledger_entries_purchase_idx;
      DROP INDEX ledger_entries_purchase_dispute_won_key;
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_kind,
        DROP CONSTRAINT ledger_entries_kind_sign,
        DROP CONSTRAINT ledger_entries_purchase_link,
        ADD CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit', 'purchase', 'refund', 'void')),
        ADD CONSTRAINT ledger_entries_kind_sign CHECK ((kind IN ('credit', 'purchase', 'void')) = (delta > 0)),
        ADD CONSTRAINT ledger_entries_purchase_link CHECK ((kind IN ('purchase', 'refund')) = (purchase_id IS NOT NULL));
      CREATE UNIQUE INDEX ledger_entries_purchase_refund_key ON ledger_entries (purchase_id) WHERE kind = 'refund';
      CREATE OR REPLACE FUNCTION purchases_status_forward() RETURNS trigger LANGUAGE plpgsql AS $$
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
      ALTER TABLE purchases
        DROP CONSTRAINT purchases_dispute_coins,
        DROP CONSTRAINT purchases_dispute_state,
        DROP CONSTRAINT purchases_dispute_outcome,
        DROP CONSTRAINT purchases_disputed_from,
        DROP CONSTRAINT purchases_refunded_status,
        DROP CONSTRAINT purchases_refunded_range,
        DROP CONSTRAINT purchases_unrecovered_after_take_back,
        DROP COLUMN dispute_unrecovered_coins,
        DROP COLUMN dispute_taken_coins,
        DROP COLUMN dispute_outcome,
        DROP COLUMN disputed_from,
        DROP COLUMN refunded_cents,
        ADD CONSTRAINT purchases_unrecovered_after_take_back CHECK (unrecovered_coins = 0 OR status IN ('refunded', 'disputed'));
      DROP TABLE payment_event_conflicts;
      DROP INDEX payment_events_object_ref_idx;
      ALTER TABLE payment_events
        DROP CONSTRAINT payment_events_amounts,
        DROP CONSTRAINT payment_events_body_hash,
        DROP CONSTRAINT payment_events_kind,
        DROP CONSTRAINT payment_events_outcome,
        DROP COLUMN object_ref,
        DROP COLUMN checkout_ref,
        DROP COLUMN livemode,
        DROP COLUMN currency,
        DROP COLUMN refunded_total_cents,
        DROP COLUMN amount_cents,
        DROP COLUMN body_hash,
        ADD CONSTRAINT payment_events_kind CHECK (kind IN ('payment_succeeded', 'payment_failed', 'refund', 'dispute', 'other')),
        ADD CONSTRAINT payment_events_outcome CHECK (outcome IN ('received', 'applied', 'deferred', 'ignored', 'unknown_purchase'));
    `);
  }
}
