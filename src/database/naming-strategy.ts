import { DefaultNamingStrategy, Table } from 'typeorm';

/**
 * Constraint and index names as PostgreSQL itself would choose them (`games_pkey`,
 * `games_slug_key`, `games_developer_id_fkey`, `games_developer_id_idx`) instead of TypeORM's
 * hashes (`UQ_57384430…`), so that a generated migration already has the plain names the
 * migrations use. Entities name their checks and most constraints explicitly anyway.
 */
export class PlainNamingStrategy extends DefaultNamingStrategy {
  private name(tableOrName: Table | string, columnNames: string[], suffix: string): string {
    const table = this.getTableName(tableOrName).split('.').pop()!;
    return [table, ...columnNames, suffix].join('_').slice(0, 63);
  }

  override primaryKeyName(tableOrName: Table | string): string {
    return this.name(tableOrName, [], 'pkey');
  }

  override uniqueConstraintName(tableOrName: Table | string, columnNames: string[]): string {
    return this.name(tableOrName, columnNames, 'key');
  }

  override relationConstraintName(tableOrName: Table | string, columnNames: string[]): string {
    return this.name(tableOrName, columnNames, 'key');
  }

  override foreignKeyName(tableOrName: Table | string, columnNames: string[]): string {
    return this.name(tableOrName, columnNames, 'fkey');
  }

  override indexName(tableOrName: Table | string, columnNames: string[]): string {
    return this.name(tableOrName, columnNames, 'idx');
  }
}
