import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 items 2 and 4 (CONTRACT §22): payout methods, payout runs and payouts.
 *
 * - `payout_methods`: one per developer, `sandbox` or `stripe` with a Stripe Connect account id.
 * - `payout_runs`: one per admin run, unique on the admin's idempotency key; `finished_at` set once,
 *   in the transaction that writes its audit entry (a run without it stopped half-way or is going).
 * - `payouts`: one per developer and run (payouts_run_developer_key), made with every shard head
 *   of the developer locked: `balance_before_mills` is its whole balance then and `held_mills` its
 *   earnings still on hold, and the amount never exceeds what was available
 *   (payouts_within_available). It moves only forward: pending → paid (with a reference) or
 *   pending → failed (with a reason); nothing else of it ever changes, and rows are never deleted.
 *
 * The ledger and the payouts hold each other to account at COMMIT (constraint triggers, deferred,
 * standing in for foreign keys both ways that the append-only ledger cannot carry):
 * - a payout has exactly its one `payout` entry (−amount, same developer) written in its own
 *   transaction, and when it was made the developer's balance after that entry was
 *   balance_before − amount (every shard locked, nothing else moved it);
 * - a failed payout has its `payout_reversal` entry (+amount);
 * - a `payout` or `payout_reversal` entry names a payout of its developer and amount, and a
 *   reversal only a failed one.
 */
export class AddPayouts1796910000000 implements MigrationInterface {
  name = 'AddPayouts1796910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- The audit log names runs and payouts too (payout.run, payout.mark_paid, payout.fail).
      ALTER TABLE audit_log DROP CONSTRAINT audit_log_target_type;
      ALTER TABLE audit_log ADD CONSTRAINT audit_log_target_type
        CHECK (target_type IN ('user', 'version', 'game', 'key', 'score', 'insertion', 'payout_run', 'payout'));

      CREATE TABLE payout_methods (
        developer_id uuid NOT NULL,
        kind text NOT NULL,
        account_id text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT payout_methods_pkey PRIMARY KEY (developer_id),
        CONSTRAINT payout_methods_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers (id),
        CONSTRAINT payout_methods_kind CHECK (kind IN ('sandbox', 'stripe')),
        CONSTRAINT payout_methods_account CHECK ((kind = 'stripe') = (account_id IS NOT NULL AND account_id ~ '^acct_[A-Za-z0-9]+$'))
      );

      CREATE TABLE payout_runs (
        id uuid NOT NULL,
        idempotency_key text NOT NULL,
        requested_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        CONSTRAINT payout_runs_pkey PRIMARY KEY (id),
        CONSTRAINT payout_runs_finished_after_created CHECK (finished_at IS NULL OR finished_at >= created_at),
        CONSTRAINT payout_runs_idempotency_key_key UNIQUE (idempotency_key),
        CONSTRAINT payout_runs_requested_by_fkey FOREIGN KEY (requested_by) REFERENCES accounts (id)
      );
      CREATE TRIGGER payout_runs_no_delete BEFORE DELETE ON payout_runs FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER payout_runs_no_truncate BEFORE TRUNCATE ON payout_runs FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();

      CREATE TABLE payouts (
        id uuid NOT NULL,
        run_id uuid NOT NULL,
        developer_id uuid NOT NULL,
        amount_mills bigint NOT NULL,
        balance_before_mills bigint NOT NULL,
        held_mills bigint NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        method_kind text NOT NULL,
        method_account_id text,
        reference text,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        failed_at timestamptz,
        CONSTRAINT payouts_pkey PRIMARY KEY (id),
        CONSTRAINT payouts_run_id_fkey FOREIGN KEY (run_id) REFERENCES payout_runs (id),
        CONSTRAINT payouts_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers (id),
        CONSTRAINT payouts_run_developer_key UNIQUE (run_id, developer_id),
        CONSTRAINT payouts_amount_positive CHECK (amount_mills > 0),
        CONSTRAINT payouts_whole_cents CHECK (amount_mills % 10 = 0),
        CONSTRAINT payouts_held_non_negative CHECK (held_mills >= 0),
        CONSTRAINT payouts_within_available CHECK (amount_mills <= balance_before_mills - held_mills),
        CONSTRAINT payouts_status CHECK (status IN ('pending', 'paid', 'failed')),
        CONSTRAINT payouts_method_kind CHECK (method_kind IN ('sandbox', 'stripe')),
        CONSTRAINT payouts_method_account CHECK ((method_kind = 'stripe') = (method_account_id IS NOT NULL)),
        CONSTRAINT payouts_paid_state CHECK ((status = 'paid') = (paid_at IS NOT NULL) AND (status <> 'paid' OR reference IS NOT NULL)),
        CONSTRAINT payouts_failed_state CHECK ((status = 'failed') = (failed_at IS NOT NULL AND failure_reason IS NOT NULL)),
        CONSTRAINT payouts_reference_length CHECK (char_length(reference) BETWEEN 1 AND 200),
        CONSTRAINT payouts_failure_reason_length CHECK (char_length(failure_reason) BETWEEN 1 AND 200)
      );
      CREATE INDEX payouts_developer_idx ON payouts (developer_id, created_at, id);
      CREATE INDEX payouts_created_idx ON payouts (created_at, id);
      CREATE INDEX payouts_pending_idx ON payouts (created_at) WHERE status = 'pending';

      -- Forward only: pending → paid or failed; what was paid, to whom and when never changes.
      CREATE FUNCTION payouts_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (NEW.id, NEW.run_id, NEW.developer_id, NEW.amount_mills, NEW.balance_before_mills, NEW.held_mills, NEW.method_kind, NEW.method_account_id, NEW.created_at)
           IS DISTINCT FROM (OLD.id, OLD.run_id, OLD.developer_id, OLD.amount_mills, OLD.balance_before_mills, OLD.held_mills, OLD.method_kind, OLD.method_account_id, OLD.created_at) THEN
          RAISE EXCEPTION 'payout %: only its status and its outcome may change', OLD.id USING ERRCODE = 'check_violation';
        END IF;
        IF OLD.status <> 'pending' AND (NEW.status, NEW.reference, NEW.failure_reason, NEW.paid_at, NEW.failed_at)
           IS DISTINCT FROM (OLD.status, OLD.reference, OLD.failure_reason, OLD.paid_at, OLD.failed_at) THEN
          RAISE EXCEPTION 'payout % is % already: it never changes again', OLD.id, OLD.status USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER payouts_forward_only BEFORE UPDATE ON payouts FOR EACH ROW EXECUTE FUNCTION payouts_forward_only();
      CREATE TRIGGER payouts_no_delete BEFORE DELETE ON payouts FOR EACH ROW EXECUTE FUNCTION refuse_row_removal();
      CREATE TRIGGER payouts_no_truncate BEFORE TRUNCATE ON payouts FOR EACH STATEMENT EXECUTE FUNCTION refuse_row_removal();

      -- At COMMIT: a new payout has its ledger entry, and the balance it was made from is the one it left less its amount.
      CREATE FUNCTION payouts_match_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        entries integer;
        balance bigint;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          SELECT count(*) INTO entries FROM developer_ledger_entries
           WHERE payout_id = NEW.id AND kind = 'payout' AND developer_id = NEW.developer_id AND amount_mills = -NEW.amount_mills;
          IF entries <> 1 THEN
            RAISE EXCEPTION 'payout % has no payout ledger entry of -% mills', NEW.id, NEW.amount_mills USING ERRCODE = 'check_violation';
          END IF;
          -- Every shard is still locked by this transaction: nothing but the payout moved the balance since it was read.
          SELECT sum(balance_mills) INTO balance FROM developer_balances WHERE developer_id = NEW.developer_id;
          IF balance IS DISTINCT FROM NEW.balance_before_mills - NEW.amount_mills THEN
            RAISE EXCEPTION 'payout %: the balance before it (% mills) is not the balance it left (% mills) plus its amount', NEW.id, NEW.balance_before_mills, balance
              USING ERRCODE = 'check_violation';
          END IF;
        ELSIF NEW.status = 'failed' AND OLD.status <> 'failed' THEN
          SELECT count(*) INTO entries FROM developer_ledger_entries
           WHERE payout_id = NEW.id AND kind = 'payout_reversal' AND developer_id = NEW.developer_id AND amount_mills = NEW.amount_mills;
          IF entries <> 1 THEN
            RAISE EXCEPTION 'failed payout % has no payout_reversal ledger entry of % mills', NEW.id, NEW.amount_mills USING ERRCODE = 'check_violation';
          END IF;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE CONSTRAINT TRIGGER payouts_match_ledger AFTER INSERT OR UPDATE ON payouts
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION payouts_match_ledger();

      -- At COMMIT: a payout or payout_reversal entry names a payout of its developer and amount; a reversal, a failed one.
      CREATE FUNCTION developer_ledger_entries_name_payouts() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        p payouts%ROWTYPE;
      BEGIN
        SELECT * INTO p FROM payouts WHERE id = NEW.payout_id;
        IF NOT FOUND OR p.developer_id <> NEW.developer_id OR p.amount_mills <> abs(NEW.amount_mills) OR (NEW.kind = 'payout_reversal' AND p.status <> 'failed') THEN
          RAISE EXCEPTION 'developer ledger entry % (%) does not match a payout of its developer and amount%', NEW.id, NEW.kind,
            CASE WHEN NEW.kind = 'payout_reversal' THEN ' that failed' ELSE '' END USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE CONSTRAINT TRIGGER developer_ledger_entries_name_payouts AFTER INSERT ON developer_ledger_entries
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind IN ('payout', 'payout_reversal'))
        EXECUTE FUNCTION developer_ledger_entries_name_payouts();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER developer_ledger_entries_name_payouts ON developer_ledger_entries;
      DROP FUNCTION developer_ledger_entries_name_payouts();
      DROP TABLE payouts;
      DROP FUNCTION payouts_match_ledger();
      DROP FUNCTION payouts_forward_only();
      DROP TABLE payout_runs;
      DROP TABLE payout_methods;
      ALTER TABLE audit_log DROP CONSTRAINT audit_log_target_type;
      ALTER TABLE audit_log ADD CONSTRAINT audit_log_target_type CHECK (target_type IN ('user', 'version', 'game', 'key', 'score', 'insertion'));
    `);
  }
}
