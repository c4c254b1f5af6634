import { hash } from 'node:crypto';

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    // Sorted by UTF-16 code units (sort's default order for strings), undefined values left out.
    const keys = Object.keys(value).sort();
    let out = '{';
    for (const key of keys) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${canonicalJson(v)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a key was used for (CONTRACT §7): the endpoint, the id in its path, and the body. */
export function requestFingerprint(endpoint: string, resourceId: string, body: unknown): string {
  return hash('sha256', canonicalJson([endpoint, resourceId, body]), 'base64url');
}
