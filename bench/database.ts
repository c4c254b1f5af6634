import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';

export interface BenchDatabase {
  /** URL of the fresh database the service and the bench use. */
  url: string;
  /** Where the server came from, for the report. */
  source: 'embedded' | 'DATABASE_URL';
  serverVersion: string;
  /** Drops the bench database (or stops the embedded server and removes its files). */
  dispose(): Promise<void>;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function serverVersion(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0].server_version;
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database for one run: `arcade_bench_<time>` on DATABASE_URL's server (dropped
 * afterwards), or else an embedded PostgreSQL in a temporary directory (removed afterwards).
 */
export async function openBenchDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `arcade_bench_${Date.now()}`;
    const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = withDatabase(serverUrl, name);
    log(`database ${name} on DATABASE_URL's server`);
    return {
      url,
      source: 'DATABASE_URL',
      serverVersion: await serverVersion(url),
      async dispose() {
        const client = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'arcade-bench-pg-'));
  const embedded = await startEmbeddedPostgres(join(dir, 'data'));
  log(`embedded PostgreSQL in ${dir}`);
  return {
    url: embedded.url,
    source: 'embedded',
    serverVersion: await serverVersion(embedded.url),
    async dispose() {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
