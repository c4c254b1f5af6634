import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Moderation (CONTRACT §18, §19): the append-only audit log, removed scores (off every board, kept
 * for the record) and frozen wallets.
 */
export class AddAuditLogAndModeration1796300000000 implements MigrationInterface {
  name = 'AddAuditLogAndModeration1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid NOT NULL REFERENCES accounts(id),
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        reason text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        request_id text,
        CONSTRAINT audit_log_action_format CHECK (action ~ '^[a-z]+\\.[a-z_]+$'),
        CONSTRAINT audit_log_target_type CHECK (target_type IN ('user', 'version', 'game', 'key', 'score', 'insertion')),
        CONSTRAINT audit_log_reason_length CHECK (char_length(reason) <= 200)
      );
      CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, id DESC);
      CREATE INDEX audit_log_target_idx ON audit_log (target_id, id DESC);

      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$;
      CREATE TRIGGER audit_log_append_only
        BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TRIGGER audit_log_no_truncate
        BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

      ALTER TABLE scores ADD COLUMN removed_at timestamptz;
      DROP INDEX scores_board_all_idx;
      DROP INDEX scores_board_week_idx;
      CREATE INDEX scores_board_all_idx ON scores (game_id, score DESC, achieved_at ASC, id)
        WHERE initials IS NOT NULL AND removed_at IS NULL;
      CREATE INDEX scores_board_week_idx ON scores (game_id, week_start, score DESC, achieved_at ASC, id)
        WHERE initials IS NOT NULL AND removed_at IS NULL;
      -- The admin's list of a game's scores, removed ones included, best first.
      CREATE INDEX scores_game_all_idx ON scores (game_id, score DESC, achieved_at ASC, id);

      ALTER TABLE wallets ADD COLUMN frozen_at timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE wallets DROP COLUMN frozen_at;
      DROP INDEX scores_game_all_idx;
      DROP INDEX scores_board_all_idx;
      DROP INDEX scores_board_week_idx;
      ALTER TABLE scores DROP COLUMN removed_at;
      CREATE INDEX scores_board_all_idx ON scores (game_id, score DESC, achieved_at ASC, id) WHERE initials IS NOT NULL;
      CREATE INDEX scores_board_week_idx ON scores (game_id, week_start, score DESC, achieved_at ASC, id) WHERE initials IS NOT NULL;
      DROP TABLE audit_log;
      DROP FUNCTION audit_log_append_only();
    `);
  }
}
