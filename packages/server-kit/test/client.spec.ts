import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArcadeApiError, createArcadeClient, submitTrustedScore, verifyPaidInsertion } from '../src';

/**
 * The client's own behaviour over real HTTP against a stand-in that answers as the contract says
 * (spec §4.8, CONTRACT §19); the real service is exercised by examples/developer-backend's test.
 */
describe('the developer API client', () => {
  const key = `svc_live_${'k'.repeat(40)}`;
  const seen: { method: string; url: string; authorization: string | undefined; body: string }[] = [];
  let answers: Record<string, { status: number; body: unknown }>;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        const answer = answers[`${req.method} ${req.url}`] ?? { status: 404, body: { error: 'NOT_FOUND', message: 'Not found' } };
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => (seen.length = 0));

  const verification = (voidedAt: string | null) => ({
    valid: true, insertionId: 'ins-1', gameId: 'g-1', sessionId: 's-1', playerRef: `pr_${'0'.repeat(32)}`, coins: 1, createdAt: '2026-01-01T00:00:00.000Z', voidedAt,
  });

  it('refuses a value that is not an API key before sending anything', () => {
    for (const apiKey of ['', 'sk_live_123', `svc_prod_${'k'.repeat(40)}`, 'svc_live_short']) {
      expect(() => createArcadeClient({ baseUrl, apiKey })).toThrow(/apiKey must be an arcade API key/);
    }
  });

  it('sends the key as Bearer; a paid insertion is paid, a voided one is not, a 404 is not_found', async () => {
    const client = createArcadeClient({ baseUrl, apiKey: key });
    answers = {
      'GET /api/v1/insertions/ins-1': { status: 200, body: verification(null) },
      'GET /api/v1/insertions/ins-2': { status: 200, body: { ...verification('2026-01-02T00:00:00.000Z'), insertionId: 'ins-2' } },
      'GET /api/v1/insertions/test_x': { status: 404, body: { error: 'NOT_FOUND', message: 'Not found', valid: false } },
    };
    expect(await verifyPaidInsertion(client, 'ins-1')).toEqual({ paid: true, insertion: verification(null) });
    expect(await verifyPaidInsertion(client, 'ins-2')).toMatchObject({ paid: false, reason: 'voided', insertion: { insertionId: 'ins-2', voidedAt: '2026-01-02T00:00:00.000Z' } });
    expect(await verifyPaidInsertion(client, 'test_x')).toEqual({ paid: false, reason: 'not_found', insertion: null });
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['GET', '/api/v1/insertions/ins-1', `Bearer ${key}`],
      ['GET', '/api/v1/insertions/ins-2', `Bearer ${key}`],
      ['GET', '/api/v1/insertions/test_x', `Bearer ${key}`],
    ]);
  });

  it('throws ArcadeApiError, never a verdict, for 401, 429 and 5xx', async () => {
    const client = createArcadeClient({ baseUrl, apiKey: key });
    answers = {
      'GET /api/v1/insertions/a': { status: 401, body: { error: 'UNAUTHENTICATED', message: 'Invalid API key' } },
      'GET /api/v1/insertions/b': { status: 429, body: { error: 'RATE_LIMITED', message: 'Slow down', retryAfterMs: 1500 } },
      'GET /api/v1/insertions/c': { status: 503, body: 'down' },
    };
    const failure = (id: string) => verifyPaidInsertion(client, id).then(() => null, (e: unknown) => e);
    expect(await failure('a')).toMatchObject({ name: 'ArcadeApiError', status: 401, code: 'UNAUTHENTICATED', retryAfterMs: null });
    expect(await failure('b')).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 1500, message: 'verify insertion b: HTTP 429 RATE_LIMITED: Slow down' });
    const down = await failure('c');
    expect(down).toBeInstanceOf(ArcadeApiError);
    expect(down).toMatchObject({ status: 503, code: null });
  });

  it('posts a trusted score with its idempotency key and returns the result; a refusal throws with its code', async () => {
    const client = createArcadeClient({ baseUrl, apiKey: key });
    const result = { scoreId: 'sc-1', saved: true, qualifies: true, rank: 1, initials: null, needsInitials: false, testMode: false, replayed: false };
    answers = {
      'POST /api/v1/insertions/ins-1/score': { status: 200, body: result },
      'POST /api/v1/insertions/ins-2/score': { status: 409, body: { error: 'INSERTION_ALREADY_SCORED', message: 'Already scored' } },
    };
    expect(await submitTrustedScore(client, 'ins-1', { score: 4200, idempotencyKey: 'score-ins-1' })).toEqual(result);
    expect(JSON.parse(seen[0]!.body)).toEqual({ score: 4200, idempotencyKey: 'score-ins-1' });
    await expect(submitTrustedScore(client, 'ins-2', { score: 1, idempotencyKey: 'score-ins-2' })).rejects.toMatchObject({ status: 409, code: 'INSERTION_ALREADY_SCORED' });
  });
});
