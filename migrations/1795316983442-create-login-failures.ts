import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed logins, for the login limits per e-mail and per client address: only failures count, so
 * people who know their password are never locked out by their own sign-ins. Subjects are stored
 * as SHA-256 hashes: no e-mail address or IP address sits in this table.
 */
export class CreateLoginFailures1795316983442 implements MigrationInterface {
  name = 'CreateLoginFailures1795316983442';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE login_failures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subject_hash bytea NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX login_failures_subject_idx ON login_failures (subject_hash, failed_at DESC);
      CREATE INDEX login_failures_failed_at_idx ON login_failures (failed_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE login_failures;');
  }
}
