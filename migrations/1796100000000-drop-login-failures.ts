import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed logins are counted by the rate limits now (the throttler's storage: Redis when REDIS_URL is
 * set, else in process), like every other limit, with the check and the count in one atomic step.
 * The rows still here are at most 15 minutes of failures: losing them resets those windows.
 */
export class DropLoginFailures1796100000000 implements MigrationInterface {
  name = 'DropLoginFailures1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE login_failures;');
  }

  async down(q: QueryRunner): Promise<void> {
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
}
