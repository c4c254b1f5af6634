import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a key was used for (CONTRACT §7): the endpoint, the id in its path, and the body. */
export function requestFingerprint(endpoint: string, resourceId: string, body: unknown): string {
  return createHash('sha256').update(canonicalJson([endpoint, resourceId, body])).digest('base64url');
}
