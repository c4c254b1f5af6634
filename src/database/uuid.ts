const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are opaque strings; only a well-formed uuid may reach a uuid column (else PostgreSQL answers 22P02). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
