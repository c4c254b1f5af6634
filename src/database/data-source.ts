import { DataSource } from 'typeorm';
import type { Config } from '../config';
import { MIGRATIONS } from '../../migrations';

/**
 * The TypeORM data source: it owns the `pg` pool, the migrations and every transaction. The
 * schema changes only through migrations (never `synchronize`).
 */
export function createDataSource(url: string, config: Pick<Config, 'dbPoolSize' | 'dbAcquireTimeoutMs' | 'dbStatementTimeoutMs'>): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    logging: false,
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
