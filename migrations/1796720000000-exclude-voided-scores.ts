import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A voided insertion takes no score (CONTRACT §19.1), however a void and a score race: the statement
 * that saves a score first takes the insertion's row lock (FOR KEY SHARE, the lock its foreign key
 * takes anyway), which waits for a void holding it FOR UPDATE, then looks for the void with a fresh
 * snapshot (a VOLATILE function's statements see what committed while it waited). So either the
 * score was saved first and the void, waiting for it, takes it off every board, or the void came
 * first and the score is refused (check_violation naming scores_insertion_not_voided: 409
 * INSERTION_VOIDED). SECURITY DEFINER: the row lock needs a privilege the app role may not keep.
 */
export class ExcludeVoidedScores1796720000000 implements MigrationInterface {
  name = 'ExcludeVoidedScores1796720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION scores_insertion_not_voided() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN
        PERFORM 1 FROM insertions WHERE id = NEW.insertion_id FOR KEY SHARE;
        IF EXISTS (SELECT 1 FROM insertion_voids WHERE insertion_id = NEW.insertion_id) THEN
          RAISE EXCEPTION 'insertion % was voided: it takes no score', NEW.insertion_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'scores_insertion_not_voided';
        END IF;
        RETURN NEW;
      END
      $$;
      REVOKE ALL ON FUNCTION scores_insertion_not_voided() FROM PUBLIC;
      CREATE TRIGGER scores_insertion_not_voided
        BEFORE INSERT ON scores
        FOR EACH ROW EXECUTE FUNCTION scores_insertion_not_voided();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER scores_insertion_not_voided ON scores; DROP FUNCTION scores_insertion_not_voided();');
  }
}
