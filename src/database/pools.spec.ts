import { watchedPg } from './pools';

describe('watchedPg', () => {
  it('records each pool the driver makes, named by its URL: the primary, and replicas in DATABASE_READ_URLS order', async () => {
    const { driver, pools } = watchedPg('postgres://db-primary/arcade', ['postgres://db-read-1/arcade', 'postgres://db-read-2/arcade']);
    const made = [
      new driver.Pool({ connectionString: 'postgres://db-read-2/arcade', max: 7 }),
      new driver.Pool({ connectionString: 'postgres://db-read-1/arcade' }),
      new driver.Pool({ connectionString: 'postgres://db-primary/arcade' }),
    ];
    expect(pools.map((p) => p.name)).toEqual(['replica2', 'replica1', 'primary']);
    expect(pools.map((p) => p.pool)).toEqual(made);
    // The size each was made with, pg's default where none was given.
    expect(pools.map((p) => p.max)).toEqual([7, 10, 10]);
    // The rest of pg is pg's own.
    expect(driver.types.getTypeParser).toBeInstanceOf(Function);
    await Promise.all(made.map((pool) => pool.end()));
  });
});
