/** `value` as a literal inside a LIKE pattern: `%`, `_` and the escape character itself (the default, a backslash) escaped. */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
