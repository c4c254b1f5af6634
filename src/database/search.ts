import type { QueryResultRow } from 'pg';
import type { UnitOfWork } from './unit-of-work';

/** `value` as a literal inside a LIKE pattern: `%`, `_` and the escape character itself (the default, a backslash) escaped. */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A search whose LIKE pattern is a parameter, planned with the pattern's value. Statements go to
 * PostgreSQL prepared, and after a few runs a prepared statement keeps a generic plan that cannot
 * see the pattern: it then walks an ordered index through every row when few match (200,000
 * accounts: 197 ms, against 9 ms through the trigram index when planned with the value).
 * `plan_cache_mode` is set for this transaction only.
 */
export function searchPlannedWithValues<T extends QueryResultRow>(uow: UnitOfWork, text: string, values: unknown[]): Promise<T[]> {
  return uow.run(async () => {
    await uow.query('SET LOCAL plan_cache_mode = force_custom_plan');
    return uow.query<T>(text, values);
  });
}
