import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { withDatabase } from './global-setup';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest (global setup).`);
  return value;
}

/** A fresh, migrated database (a copy of the run's template); returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = env('ARCADE_TEST_SERVER_URL');
  const name = `arcade_t_${env('ARCADE_TEST_RUN_ID')}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${env('ARCADE_TEST_TEMPLATE')}`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

/** An empty database with no migrations applied (for migration tests). */
export async function createEmptyDatabase(): Promise<string> {
  const serverUrl = env('ARCADE_TEST_SERVER_URL');
  const name = `arcade_t_${env('ARCADE_TEST_RUN_ID')}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

/** A small pool for reading the database back in assertions. */
export function testPool(url: string): Pool {
  return new Pool({ connectionString: url, max: 3 });
}

/**
 * Runs one statement as the owner with triggers off, as a replica applies changes: for setting up
 * what the API cannot, on tables that refuse changes to everyone (developer_earnings keeps its rows,
 * a wallet's balance follows its ledger; issue 26). The test server's role is a superuser.
 */
export async function behindTriggers(pool: Pool, sql: string, values: unknown[] = []): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    const result = await client.query(sql, values);
    await client.query('COMMIT');
    return result.rowCount ?? 0;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
