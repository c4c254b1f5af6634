import type { Response } from 'supertest';
import type { TestApp } from '../support/app';
import { createWorldApp } from '../support/factories';
import type { OpenApiDoc, Operation, Schema } from '../support/fuzz';
import { resolveRef } from '../support/fuzz';
import { eventBody, sign, webhookSecret } from '../support/payments';
import { buildWorld, World } from '../support/world';

/**
 * CONTRACT §17.2 "Errors": every API error `message`, and every `details[].problems` entry, is a
 * sentence a person understands: it begins with a capital letter, ends with a full stop, names
 * the field in words, and holds no validator stock phrase, no regular expression and no property
 * path. Bad input (wrong types, missing and unknown fields, over-long strings, bad patterns,
 * out-of-range numbers, bad cursors, bad ids) goes to every operation of the live /openapi.json
 * that takes a body, a query or a path parameter, with the credentials it needs; each 4xx JSON
 * answer is read.
 */

const STOCK_PHRASES = [
  'must match',
  'should not exist',
  'should not be empty',
  'must be a string',
  'must be a number',
  'must be an integer',
  'must be a boolean',
  'must be an email',
  'must be one of the following',
  'must be longer',
  'must be shorter',
  'must not be',
  'conforming to',
  'regular expression',
  'property ',
  'an unknown value was passed',
];
const REGEX_BITS = ['/^', '$/', '\\d', '\\S', '[a-z', '[A-Z', '[0-9', '{0,', '+$'];

/** What is wrong with one text of an error answer (empty: it reads as §17.2 says). */
export function sentenceFaults(text: unknown): string[] {
  if (typeof text !== 'string' || text.length === 0) return ['is not a text'];
  const faults: string[] = [];
  if (!/^[A-Z]/.test(text)) faults.push('does not begin with a capital letter');
  if (!/[.?!]$/.test(text)) faults.push('does not end with a full stop');
  for (const phrase of STOCK_PHRASES) if (text.toLowerCase().includes(phrase)) faults.push(`has the stock phrase "${phrase}"`);
  for (const bit of REGEX_BITS) if (text.includes(bit)) faults.push(`has a regular expression ("${bit}")`);
  if (text.includes('use a value this field accepts')) faults.push('has no words for its rule (give the decorator a message)');
  const camel = text.match(/\b[a-z]+[A-Z][A-Za-z0-9]*\b/g);
  if (camel) faults.push(`names a property in camelCase (${camel.join(', ')})`);
  const path = text.match(/(?<![\w/.])[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*(?![\w/])/g)?.filter((p) => !/^(e\.g|i\.e)$/.test(p));
  if (path?.length) faults.push(`has a property path (${path.join(', ')})`);
  return faults;
}

interface Answer {
  what: string;
  status: number;
  message: unknown;
  problems: unknown[];
}

function answerOf(what: string, res: Response): Answer | undefined {
  if (res.status < 400 || res.status >= 500 || !/json/.test(String(res.headers['content-type'] ?? ''))) return undefined;
  const details = Array.isArray(res.body.details) ? (res.body.details as { problems?: unknown[] }[]) : [];
  return { what, status: res.status, message: res.body.message, problems: details.flatMap((d) => d.problems ?? []) };
}

/** Values that break a schema's rules, each with a short name for the report. */
function badValues(schema: Schema | undefined): [string, unknown][] {
  if (!schema) return [['an object', { a: 1 }]];
  const bad: [string, unknown][] = [];
  const type = schema.type as string | undefined;
  if (Array.isArray(schema.enum)) bad.push(['not in the list', 'bogus']);
  if (type === 'string') {
    bad.push(['a number', 12345], ['true', true], ['an empty text', '']);
    if (typeof schema.maxLength === 'number') bad.push(['too long', 'x'.repeat(schema.maxLength + 1)]);
    if (typeof schema.minLength === 'number' && schema.minLength > 1) bad.push(['too short', 'x'.repeat(schema.minLength - 1)]);
    if (typeof schema.pattern === 'string') bad.push(['off the pattern', 'Not Valid!'], ['spaces only', '   ']);
  }
  if (type === 'integer' || type === 'number') {
    bad.push(['a text', 'many'], ['a fraction', 1.5], ['null', null]);
    if (typeof schema.minimum === 'number') bad.push(['below the minimum', schema.minimum - 1]);
    if (typeof schema.maximum === 'number') bad.push(['above the maximum', schema.maximum + 1]);
  }
  if (type === 'boolean') bad.push(['a text', 'yes'], ['a number', 1]);
  if (!type && !schema.enum) bad.push(['a number', 12345]);
  return bad;
}

/** Query values that break a parameter's rules (a query value is always text). */
function badQueryValues(name: string, schema: Schema | undefined): string[] {
  const values = ['x'.repeat(600), '', 'Not Valid!'];
  if (schema?.type === 'integer' || schema?.type === 'number') values.push('many', '-1', '1.5', '100000000');
  if (name === 'cursor') values.push('not-a-cursor', Buffer.from('["x"]').toString('base64url'));
  return values;
}

/** The id of the world's own resource a path parameter names, so that only the parameter under test is wrong. */
function fittingId(w: World, path: string, name: string): string {
  const [s0] = w.studios;
  const [p0] = w.players;
  if (name === 'insertionId') return p0.insertionId;
  if (name === 'scoreId') return p0.scoreId;
  if (name === 'gameId') return s0.game.gameId;
  if (name === 'versionId') return s0.game.versionId;
  if (name === 'key') return s0.achievementKey;
  if (name === 'userId') return p0.user.accountId;
  if (name === 'slug') return s0.game.slug;
  if (name === 'provider') return 'sandbox';
  if (path.startsWith('/api/portal/keys')) return s0.testKey.id;
  return p0.sessionId;
}

function fittingAuth(w: World, path: string, op: Operation): Record<string, string> {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('apiKey')) return { Authorization: `Bearer ${w.studios[0].liveKey.key}` };
  if (path.startsWith('/api/admin')) return { Cookie: w.admin.cookie };
  if (path.startsWith('/api/portal') || path.startsWith('/developer')) return { Cookie: w.studios[0].dev.cookie };
  return { Cookie: w.players[0].user.cookie };
}

describe('every API error reads as a sentence (CONTRACT §17.2)', () => {
  let t: TestApp;
  let world: World;
  let doc: OpenApiDoc;

  beforeAll(async () => {
    t = await createWorldApp({
      env: { RATE_LIMIT_LOGIN_PER_EMAIL: '100000/60', RATE_LIMIT_LOGIN_PER_ADDRESS: '100000/60', RATE_LIMIT_PURCHASES_PER_PLAYER: '100000/60' },
    });
    world = await buildWorld(t);
    doc = (await t.http().get('/openapi.json').expect(200)).body as OpenApiDoc;
  }, 120_000);
  afterAll(async () => t.close());

  it('answers bad bodies, queries and path parameters of every operation with sentences naming the field in words', async () => {
    const answers: Answer[] = [];
    const send = async (method: string, url: string, headers: Record<string, string>, body?: unknown, what = '') => {
      const req = t.http()[method as 'get'](url);
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      const res = body === undefined ? await req : await req.send(body as object);
      const answer = answerOf(`${method.toUpperCase()} ${url.slice(0, 120)} ${what}`.trim(), res);
      if (answer) answers.push(answer);
      return res;
    };
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, raw] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        if (path.startsWith('/webhooks/')) continue; // signed raw bodies: below
        const op = raw as Operation;
        const params = op.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path');
        const queryParams = params.filter((p) => p.in === 'query');
        const bodySchema = resolveRef(doc, op.requestBody?.content?.['application/json']?.schema);
        if (pathParams.length === 0 && queryParams.length === 0 && !bodySchema) continue;
        operations += 1;
        const auth = fittingAuth(world, path, op);
        const urlWith = (overrides: Record<string, string> = {}) =>
          path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(overrides[name] ?? fittingId(world, path, name)));
        const url = urlWith();
        // Path parameters: over-long, and off any pattern.
        for (const p of pathParams) {
          if (p.name === 'provider') continue;
          for (const bad of ['x'.repeat(65), 'Not Valid!', '0']) await send(method, urlWith({ [p.name]: bad }), auth, bodySchema ? {} : undefined, `path ${p.name}`);
        }
        // Query parameters: each broken on its own, every required one missing, an unknown one.
        for (const q of queryParams) {
          for (const bad of badQueryValues(q.name, q.schema)) {
            await send(method, `${url}?${q.name}=${encodeURIComponent(bad)}`, auth, undefined, `query ${q.name}`);
          }
          await send(method, `${url}?${q.name}=a&${q.name}=b`, auth, undefined, `query ${q.name} twice`);
        }
        if (queryParams.length > 0) {
          await send(method, `${url}?surprise=1`, auth, undefined, 'unknown query parameter');
          if (queryParams.some((q) => q.required)) await send(method, url, auth, undefined, 'required query parameter missing');
        }
        // Bodies: missing fields, an unknown field, not an object, each field broken on its own.
        if (bodySchema) {
          await send(method, url, auth, {}, 'empty body');
          await send(method, url, auth, { surprise: 1 }, 'unknown field');
          await send(method, url, auth, [1, 2], 'an array body');
          await send(method, url, { ...auth, 'Content-Type': 'application/json' }, '"text"', 'a text body');
          const properties = (bodySchema.properties ?? {}) as Record<string, Schema>;
          for (const [name, raw] of Object.entries(properties)) {
            for (const [label, value] of badValues(resolveRef(doc, raw))) await send(method, url, auth, { [name]: value }, `${name} ${label}`);
          }
        }
      }
    }
    // The payment webhook: unsigned, signed but not an event, signed with broken amounts.
    const secret = await webhookSecret(t);
    const webhook = async (body: string, what: string, signature = sign(secret, body)) =>
      send('post', '/webhooks/payments/sandbox', { 'Content-Type': 'application/json', 'Sandbox-Signature': signature }, body, what);
    await webhook('{}', 'unsigned', 't=1,v1=00');
    await webhook('{}', 'no id or type');
    await webhook('[1]', 'not an object');
    await webhook('not json', 'not JSON');
    await webhook(eventBody('payment.succeeded', world.players[0].sessionId, undefined, { amountCents: -5 }), 'negative amount');
    await webhook(eventBody('payment.succeeded', world.players[0].sessionId, undefined, { currency: 5 }), 'currency a number');
    // Bodies the parser refuses, and an unknown route.
    const cookie = { Cookie: world.players[0].user.cookie };
    await send('post', '/api/me/player', { ...cookie, 'Content-Type': 'application/json' }, '{"displayName":', 'broken JSON');
    await send('post', '/api/me/player', { ...cookie, 'Content-Type': 'application/json' }, '{"displayName":"\\u0000"}', 'U+0000');
    await send('post', '/api/me/player', { ...cookie, 'Content-Type': 'text/plain' }, 'x', 'plain text');
    await send('get', '/api/no-such-route', cookie);

    expect(operations).toBeGreaterThan(30);
    expect(answers.length).toBeGreaterThan(400);
    const faulty = answers.flatMap((a) =>
      [a.message, ...a.problems].flatMap((text) => sentenceFaults(text).map((fault) => `${a.what} → ${a.status} "${String(text)}" ${fault}`)),
    );
    // One line per distinct fault, so a report names each wording once.
    const distinct = [...new Map(faulty.map((line) => [line.slice(line.indexOf(' → ')), line])).values()];
    expect(distinct).toEqual([]);
  }, 300_000);

  it('says what the field takes, in words, in the message and in details', async () => {
    const dev = world.studios[0].dev;
    const gameId = world.studios[0].game.gameId;
    const key = await t.http().post(`/api/portal/games/${gameId}/achievements`).set('Cookie', dev.cookie)
      .send({ key: 'Bad Key', name: 'First', description: 'Insert a coin.', iconKey: 'coin' }).expect(400);
    expect(key.body).toMatchObject({
      error: 'INVALID_REQUEST',
      message: 'Key: use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit.',
      details: [{ field: 'key', problems: ['Key: use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit.'] }],
    });

    const game = await t.http().post('/api/portal/games').set('Cookie', dev.cookie).send({ slug: 'Bad Slug', title: '', coinsPerCredit: 9, extra: 1 }).expect(400);
    expect(game.body.details).toEqual([
      { field: 'slug', problems: ['Slug: use lower-case letters, digits and -, up to 64.'] },
      { field: 'title', problems: ['Title: use text of 1 to 80 characters.'] },
      { field: 'coinsPerCredit', problems: ['Coins per credit: use a whole number from 1 to 5.'] },
      { field: 'extra', problems: ['Unknown field “extra”: remove it.'] },
    ]);
    expect(game.body.message).toBe(
      'Slug: use lower-case letters, digits and -, up to 64. Title: use text of 1 to 80 characters. Coins per credit: use a whole number from 1 to 5. Unknown field “extra”: remove it.',
    );

    const missing = await t.http().post('/api/me/purchases').set('Cookie', world.players[0].user.cookie).send({}).expect(400);
    expect(missing.body.message).toBe('Pack is required. Idempotency key is required.');

    const query = await t.http().get('/api/admin/audit?limit=500&surprise=1').set('Cookie', world.admin.cookie).expect(400);
    expect(query.body.message).toBe('Limit: use a whole number from 1 to 100. Unknown query parameter “surprise”: remove it.');
  });
});
