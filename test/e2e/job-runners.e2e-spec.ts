import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { HEARTBEAT_SQL, LEAVE_SQL } from '../../src/modules/webhooks/job-runners.repository';
import { createTestDatabase, testPool } from '../support/database';
import { eventually } from '../support/eventually';

/**
 * The job queue's runner rows (docs/webhooks.md, "Crashes") on a database no app runs on, so each
 * statement here is the only one reaping: the heartbeat's reap unlocks a dead instance's jobs once
 * when two instances race, reaps only what the reaper watched die, and a clean stop unlocks its own.
 */
describe('job runners: heartbeat, reap and leave', () => {
  let db: Pool;

  beforeAll(async () => {
    db = testPool(await createTestDatabase());
  });
  afterAll(async () => {
    await db?.end();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM job_runners');
  });

  const DEAD_AFTER = 30;

  async function runner(seenSecondsAgo: number, pool = `pool-${randomUUID().slice(0, 8)}`): Promise<{ id: string; pool: string }> {
    const id = randomUUID();
    await db.query('INSERT INTO job_runners (id, worker_ids, seen_at) VALUES ($1, $2, now() - make_interval(secs => $3))', [id, [pool], seenSecondsAgo]);
    return { id, pool };
  }

  /** A job locked by `pool`, as graphile-worker's fetch leaves it (its public SQL has no call that locks a job). */
  async function lockedJob(pool: string): Promise<string> {
    const key = `test:${randomUUID()}`;
    await db.query("SELECT graphile_worker.add_job('job_runners_test', '{}'::json, job_key => $1)", [key]);
    await db.query('UPDATE graphile_worker._private_jobs SET locked_by = $1, locked_at = now() WHERE key = $2', [pool, key]);
    return key;
  }

  const lockedBy = async (key: string) => (await db.query<{ locked_by: string | null }>('SELECT locked_by FROM graphile_worker.jobs WHERE key = $1', [key])).rows[0]?.locked_by;

  const beat = (client: Pool | PoolClient, id: string, pool: string) =>
    client.query<{ inserted: boolean; reaped: number; unlocked: number }>(HEARTBEAT_SQL, [id, [pool], DEAD_AFTER]).then((r) => r.rows[0]!);

  it('two instances reaping one dead runner at once: one deletes it and unlocks its jobs, the other waits and does nothing', async () => {
    const dead = await runner(3600);
    const a = await runner(1);
    const b = await runner(1);
    const key = await lockedJob(dead.pool);
    const first = await db.connect();
    const second = await db.connect();
    try {
      await first.query('BEGIN');
      expect(await beat(first, a.id, a.pool)).toEqual({ inserted: false, reaped: 1, unlocked: 1 });
      const pid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const racing = beat(second, b.id, b.pool);
      // The second reap is blocked on the dead row the first one deleted and has not committed yet.
      await eventually(async () => (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = $2', [pid, 'Lock'])).rowCount, (n) => n === 1);
      await first.query('COMMIT');
      expect(await racing).toEqual({ inserted: false, reaped: 0, unlocked: 0 });
    } finally {
      first.release();
      second.release();
    }
    expect(await lockedBy(key)).toBeNull();
    const left = await db.query<{ id: string }>('SELECT id FROM job_runners ORDER BY id');
    expect(left.rows.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('reaps only what the reaper watched die: after a gap in which nobody was seen (the database away), a stale runner stays until the reaper has been seen since', async () => {
    const other = await runner(3600);
    const me = await runner(3599);
    const key = await lockedJob(other.pool);
    // My previous heartbeat is as old as the other's: it may be alive and unable to reach the database as I was.
    expect(await beat(db, me.id, me.pool)).toEqual({ inserted: false, reaped: 0, unlocked: 0 });
    expect(await lockedBy(key)).toBe(other.pool);
    // Now I have been seen for a while (a heartbeat just now) and it has not: it is dead.
    expect(await beat(db, me.id, me.pool)).toEqual({ inserted: false, reaped: 1, unlocked: 1 });
    expect(await lockedBy(key)).toBeNull();
  });

  it('a first heartbeat registers and reaps nothing; a live runner (seen within the dead-after time) is never reaped', async () => {
    const stale = await runner(3600);
    const live = await runner(5);
    const me = randomUUID();
    expect(await beat(db, me, 'pool-me')).toEqual({ inserted: true, reaped: 0, unlocked: 0 });
    expect(await beat(db, me, 'pool-me')).toEqual({ inserted: false, reaped: 1, unlocked: 1 });
    const left = await db.query<{ id: string }>('SELECT id FROM job_runners');
    expect(left.rows.map((r) => r.id).sort()).toEqual([live.id, me].sort());
    expect(left.rows.map((r) => r.id)).not.toContain(stale.id);
  });

  it('a clean stop deletes its own row and unlocks whatever its pool still held', async () => {
    const me = await runner(1);
    const key = await lockedJob(me.pool);
    await db.query(LEAVE_SQL, [me.id]);
    expect(await lockedBy(key)).toBeNull();
    expect((await db.query('SELECT 1 FROM job_runners WHERE id = $1', [me.id])).rowCount).toBe(0);
  });
});
