import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin console (CONTRACT §18): banned accounts, and an index behind every admin listing so
 * that each page is one index scan: the review queue by status and age, games newest first (all or
 * one status), a game's scores of one week best first, and "contains" searches on e-mail, display
 * name, slug and title through trigram indexes (pg_trgm ships with PostgreSQL's contrib; a GIN
 * trigram index serves `LIKE '%...%'` and `LIKE '...%'` with a bound parameter, unlike a btree).
 */
export class AddBansAndAdminSearch1796500000000 implements MigrationInterface {
  name = 'AddBansAndAdminSearch1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      ALTER TABLE accounts ADD COLUMN banned_at timestamptz;
      CREATE INDEX accounts_email_search_idx ON accounts USING gin (lower(email) gin_trgm_ops);
      CREATE INDEX accounts_display_name_search_idx ON accounts USING gin (lower(display_name) gin_trgm_ops);

      CREATE INDEX game_versions_review_idx ON game_versions (status, created_at, id);

      CREATE INDEX games_created_idx ON games (created_at DESC, id DESC);
      CREATE INDEX games_status_created_idx ON games (status, created_at DESC, id DESC);
      CREATE INDEX games_slug_search_idx ON games USING gin (slug gin_trgm_ops);
      CREATE INDEX games_title_search_idx ON games USING gin (lower(title) gin_trgm_ops);

      CREATE INDEX scores_game_week_idx ON scores (game_id, week_start, score DESC, achieved_at ASC, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX scores_game_week_idx;
      DROP INDEX games_title_search_idx;
      DROP INDEX games_slug_search_idx;
      DROP INDEX games_status_created_idx;
      DROP INDEX games_created_idx;
      DROP INDEX game_versions_review_idx;
      DROP INDEX accounts_display_name_search_idx;
      DROP INDEX accounts_email_search_idx;
      ALTER TABLE accounts DROP COLUMN banned_at;
    `);
  }
}
