/**
 * Generators for property-based fuzzing (fast-check) driven by the served OpenAPI document:
 * request bodies from and around each operation's schema, path ids, query strings, headers,
 * cookies and API keys, valid and hostile alike.
 */
import fc from 'fast-check';
import { appDeclarations } from '../../src/app.module';

export type Schema = Record<string, unknown>;
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
export interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: Schema; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}

/** Strings that have broken parsers, queries and validators elsewhere. */
export const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE ledger_entries; --",
  '1; SELECT pg_sleep(10)',
  "Robert'); DELETE FROM wallets;--",
  '" OR ""="',
  '$1',
  '\\',
  '%',
  '%00',
  '\u0000',
  '../../etc/passwd',
  '{{7*7}}',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '😀🎮👾',
  'ｆｕｌｌｗｉｄｔｈ',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  ' ',
  '',
  '-1',
  'NaN',
  '1e309',
  '9007199254740993',
  'null',
  'true',
  '00000000-0000-0000-0000-000000000000',
  'test_00000000',
  'svc_live_',
  'a'.repeat(65),
  'A'.repeat(300),
  '__proto__',
  'constructor',
  '\ud800',
  'lone \udfff low',
  '%E0%A4%A',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** Any JSON value, hostile strings included. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 9007199254740992, -9007199254740992, 1e308, [], {}),
);

export function resolveRef(doc: OpenApiDoc, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let i = 0; i < 10 && current && typeof current.$ref === 'string'; i++) {
    current = doc.components.schemas[(current.$ref as string).replace('#/components/schemas/', '')];
  }
  return current;
}

/** Values that follow the schema (examples first), so that some requests reach deep code. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

export function fromSchema(doc: OpenApiDoc, raw: Schema | undefined, depth = 0, hints: Hints = {}): fc.Arbitrary<unknown> {
  const schema = resolveRef(doc, raw);
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  const alternatives = (schema.oneOf ?? schema.anyOf ?? schema.allOf) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fromSchema(doc, s, depth + 1, hints)));
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const typed = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
        const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, Number.MAX_SAFE_INTEGER) : 100000;
        return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max });
      }
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'string': {
        const options: fc.Arbitrary<string>[] = [];
        if (typeof schema.pattern === 'string') {
          const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
          const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
          options.push(fc.stringMatching(new RegExp(schema.pattern as string)).filter((s) => s.length >= min && s.length <= max));
        } else {
          options.push(fc.string({ minLength: Number(schema.minLength ?? 0), maxLength: Math.min(Number(schema.maxLength ?? 40), 40) }));
        }
        return fc.oneof(...options);
      }
      case 'array':
        return fc.array(fromSchema(doc, schema.items as Schema, depth + 1, hints), { maxLength: 3 });
      default: {
        const properties = (schema.properties ?? {}) as Record<string, Schema>;
        const required = (schema.required ?? []) as string[];
        return fc.record(
          Object.fromEntries(
            Object.entries(properties).map(([name, prop]) => [
              name,
              hints[name] ? fc.oneof({ weight: 4, arbitrary: hints[name]! }, { weight: 1, arbitrary: fromSchema(doc, prop, depth + 1, hints) }) : fromSchema(doc, prop, depth + 1, hints),
            ]),
          ),
          { requiredKeys: required.filter((name) => name in properties) },
        );
      }
    }
  });
  const example = schema.example !== undefined ? [fc.constant(schema.example)] : [];
  return example.length ? fc.oneof({ weight: 2, arbitrary: example[0]! }, { weight: 3, arbitrary: fc.oneof(...typed) }) : fc.oneof(...typed);
}

/** A body around the schema: valid, one field broken, an extra property, or something else entirely. */
export function bodyAround(doc: OpenApiDoc, schema: Schema | undefined, hints: Hints = {}): fc.Arbitrary<unknown> {
  const valid = fromSchema(doc, schema, 0, hints);
  const sneaky = fc.constantFrom('isAdmin', 'balance', 'developerId', 'playerId', 'coins', 'testMode', 'role', 'roles', '__proto__', 'constructor', 'status');
  const mutated = fc.tuple(valid, fc.nat(), sneaky, anyJson, fc.nat({ max: 4 })).map(([body, pick, extra, value, how]) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return value;
    const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const key = keys.length ? keys[pick % keys.length]! : undefined;
    switch (how) {
      case 0:
        Object.defineProperty(copy, extra, { value, enumerable: true, configurable: true, writable: true });
        return copy;
      case 1:
        if (key) delete copy[key];
        return copy;
      case 2:
        if (key) copy[key] = value;
        return copy;
      case 3:
        if (key) copy[key] = HOSTILE_STRINGS[pick % HOSTILE_STRINGS.length];
        return copy;
      default:
        if (key) copy[key] = 'x'.repeat(5000);
        return copy;
    }
  });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 5, arbitrary: mutated }, { weight: 1, arbitrary: anyJson });
}

/** encodeURIComponent that takes any string: a lone surrogate (which URLs cannot carry) becomes U+FFFD. */
export function encodeAny(value: string): string {
  return encodeURIComponent((value as string & { toWellFormed(): string }).toWellFormed());
}

/** A marker put into string values of hostile bodies: no error answer may repeat it (CONTRACT §13, issue 14). */
export const ECHO_MARKER = 'EchoMarker7q';

/**
 * JSON texts the body parser must refuse whatever the operation (CONTRACT §13), with the status:
 * nesting over 32 levels (up to ~5,000), U+0000 and lone surrogates in strings and keys,
 * `__proto__` / `constructor` keys at any depth.
 */
export const oddJsonBody: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 33, max: 5000 }).map((depth) => '{"a":'.repeat(depth) + `"${ECHO_MARKER}"` + '}'.repeat(depth)),
  fc.integer({ min: 33, max: 5000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom('\\u0000', 'x\\u0000', '\\ud800', '\\udc00x', 'a\\ud83d').chain((odd) =>
    fc.constantFrom(`{"v":"${odd}${ECHO_MARKER}"}`, `{"${odd}":"${ECHO_MARKER}"}`, `{"a":[{"b":"${ECHO_MARKER}${odd}"}]}`),
  ),
  fc.constantFrom('__proto__', 'constructor').chain((key) =>
    fc.constantFrom(`{"${key}":{"isAdmin":true,"m":"${ECHO_MARKER}"}}`, `{"a":{"b":[{"${key}":"${ECHO_MARKER}"}]}}`, `[{"${key}":1}]`),
  ),
);

/** Bodies of other media types: 415, never read as `{}`. */
export const NON_JSON_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonp', 'text/html'];

/** Values for query parameters that once reached PostgreSQL as errors: U+0000, cursors of year 0000. */
export function oddQueryValues(encodeCursor: (publishedAt: string, id: string) => string): string[] {
  const id = '3b0d6c52-1c0e-4c57-9a0f-7f0f4b8d2e10';
  return ['\u0000', 'a\u0000b', encodeCursor('0000-01-01T00:00:00.000000Z', id), encodeCursor('10000-01-01T00:00:00.000000Z', id), encodeCursor('2026-02-30T00:00:00.000000Z', id), '99999999999999999999', '-1'];
}

const LEAK = /\n\s+at \S|\bSELECT\s|\bINSERT\s+INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|node_modules|\.ts:\d+|QueryFailedError|duplicate key value|violates .*constraint|syntax error at or near/i;

/** Every error code the app answers with (its composed declarations). */
const ERROR_CODES = appDeclarations().errors;

/**
 * Checks one answer: never a 5xx; every error in the flat shape with a known code, no stack or SQL,
 * not cached, small (`details` at most 20 entries), not repeating ECHO_MARKER. Browser pages
 * (`html: true`, operations that produce text/html) may answer an HTML error page instead.
 */
export function assertAnswer(res: { status: number; headers: Record<string, string>; body: unknown; text: string }, what: string, html = false): void {
  if (res.status >= 500) throw new Error(`${what} → ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status < 400) return;
  const type = res.headers['content-type'] ?? '';
  if (html && type.startsWith('text/html')) return;
  if (!type.startsWith('application/json')) throw new Error(`${what} → ${res.status} with content-type ${type}: ${res.text.slice(0, 200)}`);
  const body = res.body as { error?: unknown; message?: unknown; details?: unknown };
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error(`${what} → ${res.status} body is not an object`);
  if (typeof body.error !== 'string' || !ERROR_CODES.has(body.error) || typeof body.message !== 'string') {
    throw new Error(`${what} → ${res.status} not the flat error shape: ${res.text.slice(0, 300)}`);
  }
  if (LEAK.test(res.text)) throw new Error(`${what} → ${res.status} leaks a stack or SQL: ${res.text.slice(0, 300)}`);
  if (res.text.includes(ECHO_MARKER)) throw new Error(`${what} → ${res.status} repeats the request body: ${res.text.slice(0, 300)}`);
  if (res.text.length > 8192) throw new Error(`${what} → ${res.status} error answer of ${res.text.length} characters`);
  if (body.details !== undefined && (!Array.isArray(body.details) || body.details.length > 20)) throw new Error(`${what} → ${res.status} details not capped: ${res.text.slice(0, 300)}`);
  if (res.headers['cache-control'] !== 'no-store') throw new Error(`${what} → ${res.status} error without Cache-Control: no-store`);
}
