import { Client } from 'pg';
import { createDataSource, runMigrations } from '../../src/database/data-source';
import { MIGRATIONS } from '../../migrations';
import { createEmptyDatabase } from '../support/database';

const POOL = { dbPoolSize: 2, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 10000 };

async function tables(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    return rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

describe('migrations', () => {
  it('apply to an empty database and revert cleanly', async () => {
    const url = await createEmptyDatabase();
    const dataSource = createDataSource(url, POOL);
    await dataSource.initialize();
    try {
      const applied = await runMigrations(dataSource);
      expect(applied).toHaveLength(MIGRATIONS.length);
      expect(await tables(url)).toEqual(expect.arrayContaining(['accounts', 'ledger_entries', 'insertions', 'scores', 'schema_migrations']));
      expect(await runMigrations(dataSource)).toEqual([]);

      for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await tables(url)).toEqual(['schema_migrations']);

      expect(await runMigrations(dataSource)).toHaveLength(MIGRATIONS.length);
    } finally {
      await dataSource.destroy();
    }
  });

  it('are applied once when several instances start at the same moment', async () => {
    const url = await createEmptyDatabase();
    const sources = [1, 2, 3].map(() => createDataSource(url, POOL));
    await Promise.all(sources.map((s) => s.initialize()));
    try {
      const results = await Promise.all(sources.map((s) => runMigrations(s)));
      expect(results.flat()).toHaveLength(MIGRATIONS.length);
      const client = new Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query('SELECT name FROM schema_migrations');
      await client.end();
      expect(rows).toHaveLength(MIGRATIONS.length);
    } finally {
      await Promise.all(sources.map((s) => s.destroy()));
    }
  });
});
