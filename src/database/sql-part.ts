/**
 * Typed SQL parts: how one module's read travels inside another module's statement (the play
 * action's claim, the login state, scoring's board around play-sessions' read) without text
 * arithmetic or `as unknown as` on the row that comes back.
 *
 * A `SqlPart<Row>` is a statement's text (`$1..$n` for its `valueCount` values) and the columns it
 * answers, `Row` being their types. A `SqlWrap<Own>` is a statement around a read: `{read}` in its
 * template is the read's text, `$+1`, `$+2` ... its own values after the read's, `own` its columns.
 * `around` / `aroundOptional` compose the two once (at module load or first use, cached), refuse a
 * column named by both sides (the later one would silently win in `r.*`), and give the joined row
 * type. Per request only the values array is built: `part.bind(values)`.
 */
export class SqlPart<Row extends object> {
  /** Phantom: the row type, for the compiler only. */
  declare readonly row?: Row;

  readonly columns: readonly string[];

  constructor(
    readonly text: string,
    columns: readonly (keyof Row & string)[],
    readonly valueCount: number,
  ) {
    this.columns = columns;
    const seen = new Set<string>();
    for (const column of columns) {
      if (seen.has(column)) throw new Error(`SQL part answers column "${column}" twice.`);
      seen.add(column);
    }
  }

  /** The part with this request's values (the text is the part's own, built once). */
  bind(values: unknown[]): BoundSql<Row> {
    if (values.length !== this.valueCount) throw new Error(`SQL part takes ${this.valueCount} values, got ${values.length}.`);
    return { part: this, text: this.text, values };
  }
}

/** A part with one request's values. */
export interface BoundSql<Row extends object> {
  readonly part: SqlPart<Row>;
  readonly text: string;
  readonly values: unknown[];
}

/** A statement around a read: see the file's comment. `marker` columns travel with the read's row (null when it found none). */
export class SqlWrap<Own extends object, Marker extends object = object> {
  private readonly composed = new Map<SqlPart<object>, SqlPart<object>>();

  constructor(
    readonly template: string,
    readonly own: readonly (keyof Own & string)[],
    readonly valueCount: number,
    readonly marker: readonly (keyof Marker & string)[] = [],
  ) {
    if (!template.includes('{read}')) throw new Error('A SQL wrap needs {read} in its template.');
  }

  /** The composed part (built on first use, then the same object); `around` and `aroundOptional` name its row type. */
  compose<Out extends object>(read: SqlPart<object>): SqlPart<Out> {
    const part = this.composed.get(read);
    if (!part) {
      const mine = new Set<string>([...this.own, ...this.marker]);
      const clash = read.columns.find((column) => mine.has(column));
      if (clash !== undefined) throw new Error(`SQL parts clash: column "${clash}" is answered by the read and by its wrap.`);
      const text = this.template.replace(/\$\+(\d+)/g, (_, n: string) => `$${Number(n) + read.valueCount}`).replace('{read}', () => read.text);
      const columns = [...this.own, ...this.marker, ...read.columns] as (keyof Out & string)[];
      const composed = new SqlPart<Out>(text, columns, read.valueCount + this.valueCount);
      this.composed.set(read, composed);
      return composed;
    }
    return part as SqlPart<Out>;
  }
}

/** Every column of `Row` null: what a LEFT JOIN gives when its side found no row. */
export type Nulls<Row> = { [K in keyof Row]: null };
/** A row that may not have been found (LEFT JOIN LATERAL): all its columns, or all null. */
export type Optional<Row> = Row | Nulls<Row>;

/** `wrap` around `read`, which answers exactly one row per row of the wrap (a plain subquery). */
export function around<Own extends object, Inner extends object>(wrap: SqlWrap<Own>, read: SqlPart<Inner>): SqlPart<Own & Inner> {
  return wrap.compose<Own & Inner>(read);
}

/** `wrap` around `read` joined by LEFT JOIN LATERAL: the read's columns, with the wrap's marker, are all there or all null. */
export function aroundOptional<Own extends object, Marker extends object, Inner extends object>(
  wrap: SqlWrap<Own, Marker>,
  read: SqlPart<Inner>,
): SqlPart<Own & Optional<Marker & Inner>> {
  return wrap.compose<Own & Optional<Marker & Inner>>(read);
}

/** Whether an `Optional` row was found, told by one of its never-null columns. */
export function found<Row extends object>(row: Optional<Row>, key: keyof Row): row is Row {
  return row[key] !== null;
}
