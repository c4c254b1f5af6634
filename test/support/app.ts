import type { Pool } from 'pg';
import request from 'supertest';
import { App, createApp } from '../../src/app';
import type { ModuleImport } from '../../src/app.module';
import { loadConfig } from '../../src/config';
import { createTestDatabase, testPool } from './database';

export interface TestApp {
  app: App;
  /** supertest against the in-process server. */
  http: () => ReturnType<typeof request>;
  /** Read the database back (assertions only; never to set up state the API can set up). */
  db: Pool;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * The real application, in-process, on a fresh real PostgreSQL database. `env` overrides
 * configuration variables (e.g. SESSION_IDLE_TIMEOUT_SECONDS); `databaseUrl` shares a database
 * between several instances.
 */
export async function createTestApp(options: { env?: Record<string, string>; databaseUrl?: string; imports?: ModuleImport[]; requestDeadlineMs?: number } = {}): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    DB_POOL_SIZE: '10',
    ...options.env,
    DATABASE_URL: databaseUrl,
  });
  const app = await createApp({ ...config, databaseUrl }, { imports: options.imports, requestDeadlineMs: options.requestDeadlineMs });
  const server = app.nest.getHttpServer();
  const db = testPool(databaseUrl);
  return {
    app,
    http: () => request(server),
    db,
    databaseUrl,
    async close() {
      await app.close();
      await db.end();
    },
  };
}
