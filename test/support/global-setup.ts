import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { grantAppRole } from '../../src/database/app-role';
import { createDataSource, runMigrations } from '../../src/database/data-source';
import { installJobQueue } from '../../src/database/job-queue';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

/**
 * Real PostgreSQL for the whole run: DATABASE_URL's server when set, else an embedded one in a
 * temporary directory. One template database is migrated once; every test app gets a fresh copy
 * of it (CREATE DATABASE ... TEMPLATE), so test files never see each other's rows. As in
 * production, test apps connect as an application role of their own (no superuser, owns nothing,
 * data access granted on the template) and migrate as the owner (issue 14: least privilege).
 */
export default async function globalSetup(): Promise<void> {
  // Which Node runs the suite, visible in every run's log: through npm it is package.json's pinned `node`.
  process.stderr.write(`\nTests run on Node ${process.version} (${process.execPath})\n`);
  const runId = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'arcade-test-pg-'));
    const embedded = await startEmbeddedPostgres(join(dir, 'data'));
    (globalThis as Record<string, unknown>).__ARCADE_EMBEDDED__ = embedded;
    serverUrl = embedded.url;
  }
  const template = `arcade_t_${runId}_template`;
  const appRole = `arcade_t_${runId}_app`;
  const appPassword = randomBytes(18).toString('base64url');
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.query(`CREATE ROLE ${appRole} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${admin.escapeLiteral(appPassword)}`);
  await admin.end();

  const dataSource = createDataSource(withDatabase(serverUrl, template), { dbPoolSize: 2, dbAcquireTimeoutMs: 10000, dbStatementTimeoutMs: 10000 });
  await dataSource.initialize();
  await runMigrations(dataSource);
  await grantAppRole(dataSource, appRole);
  await dataSource.destroy();
  await installJobQueue(withDatabase(serverUrl, template), appRole);

  process.env.ARCADE_TEST_APP_ROLE = appRole;
  process.env.ARCADE_TEST_APP_PASSWORD = appPassword;
  process.env.ARCADE_TEST_SERVER_URL = serverUrl;
  process.env.ARCADE_TEST_TEMPLATE = template;
  process.env.ARCADE_TEST_RUN_ID = runId;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The same database as the run's application role. */
export function asAppRole(url: string): string {
  const parsed = new URL(url);
  parsed.username = process.env.ARCADE_TEST_APP_ROLE ?? '';
  parsed.password = encodeURIComponent(process.env.ARCADE_TEST_APP_PASSWORD ?? '');
  return parsed.toString();
}
