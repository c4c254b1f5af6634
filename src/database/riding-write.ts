/**
 * A write of one module that rides on another module's write statement as one more CTE, so that a
 * use case's writes reach PostgreSQL in one round trip (docs/performance.md) while each module still
 * writes only its own tables with its own SQL.
 *
 * `sql` is the CTE's body (an INSERT, UPDATE or DELETE) with its own placeholders `$1..$n` for
 * `values`, and two tokens the host statement fills in: `{when}`, a condition that holds only when
 * the host's own write happened (the rider writes nothing otherwise), and `{result}`, a jsonb of
 * what the host statement worked out (documented by the host; `'{}'` when it offers nothing).
 */
export interface RidingWrite {
  readonly sql: string;
  readonly values: readonly unknown[];
}

interface Texts {
  text?: string;
  next: Map<string, Texts>;
}
const hosts = new Map<string, Texts>();

/**
 * The host statement `head` (CTEs; `$1..$k` its own `k` values) followed by each rider as
 * `, rider_<i> AS (...)`, then `tail` (the host's final SELECT). The riders' values follow the
 * host's, in order. Texts are built once per (head, riders) combination: all are constants (and
 * so are a host's `when`, `result`, `tail` and value count), so the prepared statement's name stays
 * stable. Replacements are functions: a `$&` or `$'` in SQL text would otherwise be a pattern.
 */
export function withRiders(head: string, hostValueCount: number, riders: readonly RidingWrite[], when: string, result: string, tail: string): string {
  let node: Texts | undefined = hosts.get(head);
  if (!node) hosts.set(head, (node = { next: new Map() }));
  for (const rider of riders) {
    let child: Texts | undefined = node.next.get(rider.sql);
    if (!child) node.next.set(rider.sql, (child = { next: new Map() }));
    node = child;
  }
  if (node.text === undefined) {
    let offset = hostValueCount;
    const ctes = riders.map((rider, i) => {
      const body = shiftPlaceholders(rider.sql, offset).replaceAll('{when}', () => when).replaceAll('{result}', () => result);
      offset += rider.values.length;
      return `, rider_${i} AS (${body})`;
    });
    node.text = `${head}${ctes.join('')}\n${tail}`;
  }
  return node.text;
}

/** The host's values followed by each rider's. */
export function riderValues(host: unknown[], riders: readonly RidingWrite[]): unknown[] {
  for (const rider of riders) for (const value of rider.values) host.push(value);
  return host;
}

function shiftPlaceholders(sql: string, offset: number): string {
  return offset === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}
