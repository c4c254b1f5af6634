import type { Pool } from 'pg';
import type { Logger } from 'pino';
import request from 'supertest';
import { App, createApp } from '../../src/app';
import type { ModuleImport } from '../../src/app.module';
import { loadConfig } from '../../src/config';
import { TestClock } from './clock';
import { createTestDatabase, testPool } from './database';
import { asAppRole } from './global-setup';

export interface TestApp {
  app: App;
  /** supertest against the in-process server. */
  http: () => ReturnType<typeof request>;
  /** Read the database back (assertions only; never to set up state the API can set up). */
  db: Pool;
  /** The owner's URL of the app's database (tests read with it and share it between apps). */
  databaseUrl: string;
  /** The rate limits' clock: `t.clock.advance(ms)` instead of sleeping through a window. */
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * Sign-up and mail limits per client address and for everyone: every test signs its users up from
 * 127.0.0.1, so these are lifted unless a test sets them (the limit tests do). Passwords are hashed
 * with the cheap test-only argon2id parameters (PASSWORD_HASH_COST=test, refused outside
 * NODE_ENV=test); the tests about the hashes themselves set PASSWORD_HASH_COST=owasp.
 */
export const TEST_LIMITS = {
  PASSWORD_HASH_COST: 'test',
  RATE_LIMIT_SIGNUP_PER_ADDRESS: '1000000/3600',
  RATE_LIMIT_SIGNUP_GLOBAL: '1000000/60',
  RATE_LIMIT_MAIL_PER_ADDRESS: '1000000/3600',
  RATE_LIMIT_MAIL_GLOBAL: '1000000/3600',
};

/**
 * The real application, in-process, on a fresh real PostgreSQL database. `env` overrides
 * configuration variables (e.g. SESSION_IDLE_TIMEOUT_SECONDS); `databaseUrl` shares a database
 * between several instances, and `clock` their rate-limit clock. The app connects as the run's
 * application role and migrates as the owner, as a production deployment with DATABASE_OWNER_URL does.
 * `logger`: the app's root logger (a test reading the log lines makes one with createRootLogger's `destination`).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; databaseUrl?: string; imports?: ModuleImport[]; requestDeadlineMs?: number; clock?: TestClock; logger?: Logger } = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    DB_POOL_SIZE: '10',
    ...TEST_LIMITS,
    ...options.env,
    DATABASE_URL: asAppRole(databaseUrl),
    DATABASE_OWNER_URL: databaseUrl,
  });
  const clock = options.clock ?? new TestClock();
  const app = await createApp({ ...config, databaseUrl: config.databaseUrl! }, { imports: options.imports, requestDeadlineMs: options.requestDeadlineMs, clock, logger: options.logger });
  const server = app.nest.getHttpServer();
  const db = testPool(databaseUrl);
  return {
    app,
    http: () => request(server),
    db,
    databaseUrl,
    clock,
    async close() {
      await app.close();
      await db.end();
    },
  };
}
