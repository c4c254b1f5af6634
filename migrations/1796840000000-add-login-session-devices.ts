import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed-in devices (CONTRACT §20, `GET /api/me/sessions`): the `User-Agent` a login session
 * signed in with (its first 200 characters; null when none was sent) and when it was last used.
 * `last_seen_at` is moved at most once a minute per session, when the session is read for a
 * request (LoginSessionService), never by the play routes' own statements. Sessions from before
 * this migration have none yet: they read as their `created_at` until they are next used. Both
 * columns are added without a default that rewrites the table.
 */
export class AddLoginSessionDevices1796840000000 implements MigrationInterface {
  name = 'AddLoginSessionDevices1796840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE login_sessions
        ADD COLUMN user_agent text CONSTRAINT login_sessions_user_agent_length CHECK (char_length(user_agent) <= 200),
        ADD COLUMN last_seen_at timestamptz;
      ALTER TABLE login_sessions ALTER COLUMN last_seen_at SET DEFAULT now();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE login_sessions DROP COLUMN last_seen_at, DROP COLUMN user_agent;');
  }
}
