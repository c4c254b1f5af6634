import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { EmbeddedDatabase } from '../../src/database/embedded-postgres';
import { withDatabase } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  // The browser bundles kept for the run (test/support/esbuild-once.ts).
  if (process.env.ARCADE_TEST_RUN_ID) await rm(join(tmpdir(), `arcade_t_${process.env.ARCADE_TEST_RUN_ID}_bundles`), { recursive: true, force: true });
  const embedded = (globalThis as Record<string, unknown>).__ARCADE_EMBEDDED__ as EmbeddedDatabase | undefined;
  if (embedded) {
    await embedded.stop();
    return;
  }
  const serverUrl = process.env.ARCADE_TEST_SERVER_URL;
  const runId = process.env.ARCADE_TEST_RUN_ID;
  if (!serverUrl || !runId) return;
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`arcade_t_${runId}_%`]);
  for (const { datname } of rows) {
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
  }
  // The run's application role, once no database holds a grant to it any more.
  await admin.query(`DROP ROLE IF EXISTS arcade_t_${runId}_app`).catch(() => undefined);
  await admin.end();
}
