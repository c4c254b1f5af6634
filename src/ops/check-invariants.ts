import { Pool } from 'pg';
import { checkInvariants } from './invariants';

/**
 * `npm run check:invariants` (DATABASE_URL required): prints the report as JSON and exits 1 when
 * any money invariant is violated. Safe on a live database: it only reads.
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
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await pool.end();
  }
}

void main();
