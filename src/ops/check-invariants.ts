import { Pool } from 'pg';
import { checkInvariants } from './invariants';

/**
 * `npm run check:invariants` (DATABASE_URL required): runs the books' checks (CONTRACT §22: the same
 * eight the reconciliation answers), prints the report as JSON on stdout and each failed check's
 * name on stderr, and exits 1 when any check failed. Safe on a live database: it only reads, in
 * one read-only snapshot.
 */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write('DATABASE_URL is required: the database to check.\n');
    process.exit(2);
  }
  const pool = new Pool({ connectionString: url, max: 1 });
  // An idle connection cut by the server is reported by the query that needed it, not as a crash.
  pool.on('error', () => undefined);
  try {
    const report = await checkInvariants(pool);
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    for (const check of report.checks) if (!check.ok) process.stderr.write(`check failed: ${check.name}\n`);
    process.exitCode = report.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`check:invariants could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  } finally {
    await pool.end();
  }
}

void main();
