import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

/**
 * One instance's heartbeat (docs/webhooks.md, "Crashes"), in one statement: its row in
 * `job_runners` is written (inserted the first time, or again after a survivor reaped it) with the
 * graphile-worker pool ids its jobs are locked with, and every other runner not seen for `$3`
 * seconds before this instance's own previous heartbeat is deleted and its pool ids force-unlocked
 * (`graphile_worker.force_unlock_workers`, graphile-worker's public call for workers that are no
 * longer running), so the jobs a killed instance held run again at once.
 *
 * - Once: the DELETE locks each dead row, so of two instances reaping at once the second finds
 *   it gone (it deletes and unlocks nothing); the unlock commits with the DELETE or not at all.
 * - Only what this instance watched die: the cut-off is this instance's previous heartbeat, not
 *   the clock, so after the database (or this instance) was away for a while nobody reaps
 *   instances that could not be seen meanwhile; a first heartbeat reaps nothing.
 *
 * $1 runner id, $2 its pool ids, $3 dead-after seconds. Answers whether the row had to be inserted
 * (`inserted`: the first heartbeat, or this instance was reaped) and how many runners it reaped.
 */
export const HEARTBEAT_SQL = `
  WITH previous AS (
    SELECT seen_at FROM job_runners WHERE id = $1
  ), me AS (
    INSERT INTO job_runners (id, worker_ids) VALUES ($1, $2::text[])
    ON CONFLICT (id) DO UPDATE SET worker_ids = EXCLUDED.worker_ids, seen_at = now()
    RETURNING (xmax = 0) AS inserted
  ), dead AS (
    DELETE FROM job_runners r USING previous
     WHERE r.id <> $1 AND r.seen_at < previous.seen_at - make_interval(secs => $3)
    RETURNING r.id, r.worker_ids
  ), unlocked AS (
    SELECT graphile_worker.force_unlock_workers(array_agg(w.id)) FROM dead CROSS JOIN LATERAL unnest(dead.worker_ids) AS w(id)
    HAVING count(*) > 0
  )
  SELECT (SELECT inserted FROM me) AS inserted, (SELECT count(*) FROM dead)::int AS reaped, (SELECT count(*) FROM unlocked)::int AS unlocked`;

/** A clean stop, after the runner stopped (its pool runs nothing more): its row deleted and whatever it still held unlocked. */
export const LEAVE_SQL = `
  WITH mine AS (DELETE FROM job_runners WHERE id = $1 RETURNING worker_ids)
  SELECT graphile_worker.force_unlock_workers(worker_ids) FROM mine`;

/**
 * The fence a job's writes to the queue share (a CTE of their statement): this instance's runner
 * row, KEY SHARE-locked while the statement runs, so no survivor can reap this instance (and
 * unlock the job) between the check and the commit. A statement that finds no row writes nothing:
 * this instance was reaped (it looked dead, e.g. frozen for longer than the dead-after time) and
 * its job may already be running elsewhere. Not locked against the heartbeat's own UPDATE.
 */
export const RUNNER_FENCE = (parameter: string) => `runner AS (SELECT 1 FROM job_runners WHERE id = ${parameter} FOR KEY SHARE)`;

@Injectable()
export class JobRunnersRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async heartbeat(runnerId: string, workerIds: readonly string[], deadAfterSeconds: number): Promise<{ inserted: boolean; reaped: number }> {
    const row = await this.uow.one<{ inserted: boolean; reaped: number }>(HEARTBEAT_SQL, [runnerId, workerIds, deadAfterSeconds]);
    return row!;
  }

  async leave(runnerId: string): Promise<void> {
    await this.uow.query(LEAVE_SQL, [runnerId]);
  }
}
