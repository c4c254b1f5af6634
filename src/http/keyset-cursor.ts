import { InvalidRequestError } from '../errors/app-error';
import { isUuid } from '../database/uuid';

/**
 * Opaque paging cursors (CONTRACT §16.19, §18): base64url of a JSON array holding the sort key of
 * the last row of a page. Each listing names the kinds of its key's parts; a cursor that does not
 * decode to exactly those answers 400 INVALID_REQUEST, so nothing unreadable reaches PostgreSQL.
 */
export type CursorPart = 'timestamp' | 'uuid' | 'digits';

type PartValue = string;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DIGITS = /^(0|[1-9][0-9]{0,18})$/;

/**
 * A real instant as PostgreSQL prints it for us (`to_char(... 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`):
 * no 2026-02-30, and nothing before 1970 (PostgreSQL has no year 0 and answered an error; every row
 * a cursor points at was made after 1970).
 */
function isTimestamp(value: string): boolean {
  if (!TIMESTAMP.test(value) || value < '1970') return false;
  const parsed = new Date(value.slice(0, 23) + 'Z');
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === value.slice(0, 19);
}

const CHECKS: Record<CursorPart, (value: string) => boolean> = {
  timestamp: isTimestamp,
  uuid: isUuid,
  digits: (value) => DIGITS.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n,
};

/** SQL that prints a timestamptz column in the cursor's format (microseconds, UTC). */
export const cursorTimestamp = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(parts: readonly PartValue[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor<const K extends readonly CursorPart[]>(cursor: string, kinds: K): { [I in keyof K]: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === kinds.length && value.every((part, i) => typeof part === 'string' && CHECKS[kinds[i]!](part))) {
      return value as { [I in keyof K]: string };
    }
  } catch {
    // Falls through to the 400 below.
  }
  const words = 'Cursor: it cannot be read; send the next cursor of a previous page as it came.';
  throw new InvalidRequestError(words, [{ field: 'cursor', problems: [words] }]);
}

/**
 * One page out of `limit + 1` rows read: the rows to answer, and the cursor of the next page
 * (null at the end) from the last row's key.
 */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => readonly PartValue[]): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
