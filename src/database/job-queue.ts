import { Pool } from 'pg';
import { Logger, runMigrations as runJobQueueMigrations } from 'graphile-worker';

/**
 * The PostgreSQL job queue (graphile-worker, schema `graphile_worker`): the webhooks' outbox
 * enqueues with `graphile_worker.add_job(...)` inside the transaction of the change
 * (migrations/1797000000000-add-webhooks.ts), and workers in every instance take the jobs.
 *
 * Installed and upgraded by the schema owner after our own migrations (graphile-worker keeps its
 * own migration history in `graphile_worker.migrations` and takes its own lock), then the
 * application role is given what a worker needs: it reads, locks, updates and deletes job rows
 * (a finished job's row is deleted) and calls the queue's functions, and a row-level security policy
 * lets it see the rows (graphile-worker enables RLS on its tables). It creates nothing.
 */
export const JOB_QUEUE_SCHEMA = 'graphile_worker';

export async function installJobQueue(ownerUrl: string, appRole?: string): Promise<void> {
  const pool = new Pool({ connectionString: ownerUrl, max: 2 });
  // An idle connection cut meanwhile: the pool replaces it (a client's own error would otherwise end the process).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await runJobQueueMigrations({ pgPool: pool, logger: quietLogger() });
    if (appRole) await grantJobQueue(pool, appRole);
  } finally {
    await pool.end();
  }
}

async function grantJobQueue(pool: Pool, appRole: string): Promise<void> {
  const role = `"${appRole.replace(/"/g, '""')}"`;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // One instance at a time, as grantAppRole: concurrent GRANTs update the same catalog rows.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('arcade:grants'))");
    await client.query(`GRANT USAGE ON SCHEMA ${JOB_QUEUE_SCHEMA} TO ${role}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOB_QUEUE_SCHEMA} TO ${role}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${JOB_QUEUE_SCHEMA} TO ${role}`);
    await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${JOB_QUEUE_SCHEMA} TO ${role}`);
    // graphile-worker turns row-level security on for its tables (no policy: only their owner sees rows); the
    // application role gets every row of them through one policy per table.
    // Only the tables whose policy is missing (or names another role): a policy is DDL, which locks
    // its table against every worker of the instances already running (two starts at once deadlocked
    // with a running worker), so a start that finds them in place changes nothing.
    const { rows } = await client.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c
        WHERE c.relnamespace = $1::text::regnamespace AND c.relkind = 'r' AND c.relrowsecurity
          AND NOT EXISTS (SELECT 1 FROM pg_policies p
                           WHERE p.schemaname = $1::text AND p.tablename = c.relname AND p.policyname = 'arcade_app_role' AND p.roles = ARRAY[$2::text]::name[])
        ORDER BY c.relname`,
      [JOB_QUEUE_SCHEMA, appRole],
    );
    for (const { relname } of rows) {
      const table = `${JOB_QUEUE_SCHEMA}."${relname.replace(/"/g, '""')}"`;
      await client.query(`DROP POLICY IF EXISTS arcade_app_role ON ${table}`);
      await client.query(`CREATE POLICY arcade_app_role ON ${table} TO ${role} USING (true) WITH CHECK (true)`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** graphile-worker's own logger writes to the console; start-up migrations log nothing unless they fail (they throw). */
export function quietLogger(): Logger {
  return new Logger(() => () => undefined);
}
