import * as pg from 'pg';
import type { DataSource } from 'typeorm';

export interface NamedPool {
  /** `primary`, or `replica1`... in DATABASE_READ_URLS' order. */
  name: string;
  pool: pg.Pool;
  /** The most connections it may open, as it was made with (pg's default when not given). */
  max: number;
}

/** pg-pool's size when it is given none (its documented default `max`). */
const PG_POOL_DEFAULT_MAX = 10;

/** The pools each data source made, as `watchedPg` saw them made. */
const made = new WeakMap<DataSource, NamedPool[]>();

/**
 * `pg` as TypeORM's public `driver` option takes it (in place of `require('pg')`): the same module,
 * whose `Pool` records every pool the data source makes under its name (the primary's URL, or a
 * replica's place in `readUrls`), with the size it was made with. The metrics read pg's public
 * counters of each (totalCount, idleCount, waitingCount) when Prometheus scrapes; nothing of
 * TypeORM's or pg's own fields is read.
 */
export function watchedPg(primaryUrl: string, readUrls: readonly string[]): { driver: typeof pg; pools: NamedPool[] } {
  const pools: NamedPool[] = [];
  class WatchedPool extends pg.Pool {
    constructor(options?: pg.PoolConfig) {
      super(options);
      const replica = readUrls.indexOf(options?.connectionString ?? '');
      pools.push({ name: replica >= 0 && options?.connectionString !== primaryUrl ? `replica${replica + 1}` : 'primary', pool: this, max: options?.max ?? PG_POOL_DEFAULT_MAX });
    }
  }
  // An own property over the module's (compiled imports expose it through a getter, which cannot be assigned).
  return { driver: Object.create(pg, { Pool: { value: WatchedPool, enumerable: true } }) as typeof pg, pools };
}

/** Files the pools `watchedPg` records under the data source they were made for. */
export function rememberPools(dataSource: DataSource, pools: NamedPool[]): void {
  made.set(dataSource, pools);
}

/** The data source's `pg` pools, by name (those made since it initialized). */
export function databasePools(dataSource: DataSource): NamedPool[] {
  return made.get(dataSource) ?? [];
}
