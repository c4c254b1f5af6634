import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job queue's live runners (docs/webhooks.md, "Crashes"): one row per instance, naming the
 * graphile-worker pool id its jobs are locked with (`worker_ids`) and refreshed every few seconds
 * (`seen_at`). A row left unrefreshed is a dead instance: the survivors delete it and
 * force-unlock its jobs in one statement (`graphile_worker.force_unlock_workers`), so a job a
 * killed instance held comes back within seconds instead of graphile-worker's 4-hour lock timeout.
 */
export class AddJobRunners1797010000000 implements MigrationInterface {
  name = 'AddJobRunners1797010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_runners (
        id uuid PRIMARY KEY,
        worker_ids text[] NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        seen_at timestamptz NOT NULL DEFAULT now()
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE job_runners');
  }
}
