import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { Config } from '../config';
import { MIGRATIONS } from '../../migrations';
import { AppSetting } from './app-setting.entity';
import { PlainNamingStrategy } from './naming-strategy';
import { rememberPools, watchedPg } from './pools';

/**
 * The entities: each module's own, found by their file name (`src/modules/<m>/*.entity.ts`, or
 * `.js` once built), so this layer imports no module and a module adds a table without an edit
 * here; and the database layer's own `app_settings`. TypeORM loads the files when the DataSource
 * initializes (before Nest starts: createApp migrates first), the same files the modules import,
 * so the classes are the ones their repositories use. test/e2e/schema.e2e-spec.ts fails if a
 * table has no entity (one declared in a file not named `*.entity.ts`, say).
 */
const ENTITIES = [join(__dirname, '..', 'modules', '*', '*.entity.{ts,js}'), AppSetting];

export type DataSourceConfig = Pick<Config, 'dbPoolSize' | 'dbAcquireTimeoutMs' | 'dbStatementTimeoutMs'> & {
  /** Read replicas (DATABASE_READ_URLS): TypeORM replication, used only by `UnitOfWork.queryReplica`. */
  databaseReadUrls?: readonly string[];
};

export interface DataSourceHooks {
  /** Every error a pool raises (an idle connection cut by a restart); the pool then replaces it. */
  onPoolError?: (error: unknown) => void;
}

/**
 * The TypeORM data source: it owns the `pg` pools (the primary's, and the replicas' when
 * DATABASE_READ_URLS is set), the entities, the migrations and every transaction. The schema
 * changes only through migrations (never `synchronize`); test/e2e/schema.e2e-spec.ts checks that
 * the entities and the migrated schema agree.
 */
export function createDataSource(url: string, config: DataSourceConfig, hooks: DataSourceHooks = {}): DataSource {
  const readUrls = config.databaseReadUrls ?? [];
  const pg = watchedPg(url, readUrls);
  const dataSource = new DataSource({
    type: 'postgres',
    driver: pg.driver,
    ...(readUrls.length > 0
      ? {
          replication: {
            master: { url },
            slaves: readUrls.map((readUrl) => ({ url: readUrl })),
            // Entity reads stay on the primary unless a repository asks for a replica explicitly.
            defaultMode: 'master' as const,
          },
        }
      : { url }),
    entities: ENTITIES,
    namingStrategy: new PlainNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    logging: false,
    // gen_random_uuid() is built into PostgreSQL 13+: no extension is created at start-up.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    // Without a listener an idle connection cut by a database restart would end the process.
    poolErrorHandler: (error: unknown) => hooks.onPoolError?.(error),
    extra: {
      max: config.dbPoolSize,
      connectionTimeoutMillis: config.dbAcquireTimeoutMs,
      statement_timeout: config.dbStatementTimeoutMs,
      // A client-side bound too, for a server that stops answering altogether.
      query_timeout: config.dbStatementTimeoutMs + 1000,
      idle_in_transaction_session_timeout: 10_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      application_name: 'arcade-coin-service',
    },
  });
  rememberPools(dataSource, pg.pools);
  return dataSource;
}

/** Applies pending migrations once, even when several instances start at the same moment. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // Migrations may take longer than the request statement timeout.
    await runner.query('SET statement_timeout = 0');
    // Poll instead of blocking: a blocked pg_advisory_lock would outlive the pool's client-side
    // query timeout while another instance applies a long migration.
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock(727274) AS locked');
      if (locked) break;
      if (Date.now() > deadline) throw new Error('Timed out waiting for another instance to finish migrating.');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(727274)');
      // This connection goes back to the request pool: give it back its statement timeout.
      await runner.query('RESET statement_timeout');
    }
  } finally {
    await runner.release();
  }
}
