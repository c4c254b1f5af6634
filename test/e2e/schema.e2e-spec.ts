import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../src/database/data-source';
import { createEmptyDatabase } from '../support/database';

/**
 * The entities and the migrations can never drift apart: on an empty database, after every
 * migration, TypeORM's schema builder finds nothing to change for the entities (the same
 * comparison `npm run migration:generate` makes), and every table has its entity.
 */
const POOL = { dbPoolSize: 2, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 10000 };

/** Tables without an entity: TypeORM's own migrations table. */
const WITHOUT_ENTITY = ['schema_migrations'];

describe('entities and migrations', () => {
  let url: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    url = await createEmptyDatabase();
    dataSource = createDataSource(url, POOL);
    await dataSource.initialize();
    await runMigrations(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('leave TypeORM no schema change to make for the entities', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('give every table an entity', async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    await client.end();
    const tables = rows.map((r) => r.table_name).filter((t) => !WITHOUT_ENTITY.includes(t));
    expect(dataSource.entityMetadatas.map((m) => m.tableName).sort()).toEqual(tables);
  });

  it('notice a constraint, an index, a default or a nullability that the database lacks', async () => {
    const drifted = await createEmptyDatabase();
    const other = createDataSource(drifted, POOL);
    await other.initialize();
    try {
      await runMigrations(other);
      await other.query(`
        ALTER TABLE games DROP CONSTRAINT games_status;
        DROP INDEX scores_board_week_idx;
        ALTER TABLE players ALTER COLUMN xp DROP DEFAULT;
        ALTER TABLE login_sessions ALTER COLUMN revoked_at SET NOT NULL;
        ALTER TABLE insertions DROP CONSTRAINT insertions_ledger_entry_id_fkey`);
      const pending = (await other.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query).join('\n');
      expect(pending).toMatch(/ADD CONSTRAINT "games_status" CHECK/);
      expect(pending).toMatch(/CREATE INDEX "scores_board_week_idx"/);
      expect(pending).toMatch(/"xp" SET DEFAULT '0'/);
      expect(pending).toMatch(/"revoked_at" DROP NOT NULL/);
      expect(pending).toMatch(/ADD CONSTRAINT "insertions_ledger_entry_id_fkey" FOREIGN KEY \("ledger_entry_id"\) REFERENCES "ledger_entries"/);
    } finally {
      await other.destroy();
    }
  });
});
