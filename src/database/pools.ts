import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The data source's `pg` pools, by name: `primary`, and `replica1`... with DATABASE_READ_URLS.
 * TypeORM's PostgresDriver keeps them in its public `master` and `slaves` fields; the metrics read
 * pg's public counters of each (totalCount, idleCount, waitingCount) when Prometheus scrapes.
 */
export function databasePools(dataSource: DataSource): { name: string; pool: Pool }[] {
  const driver = dataSource.driver as PostgresDriver;
  const pools: { name: string; pool: Pool }[] = [];
  if (driver.master) pools.push({ name: 'primary', pool: driver.master as Pool });
  (driver.slaves ?? []).forEach((pool: Pool, index: number) => pools.push({ name: `replica${index + 1}`, pool }));
  return pools;
}
