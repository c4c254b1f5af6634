import { Body, Controller, Module, Post } from '@nestjs/common';
import { encodeCursor } from '../../src/http/keyset-cursor';
import { Public } from '../../src/http/public.decorator';
import { createTestApp, TestApp } from '../support/app';
import { createWorldApp, signUpVerifiedPlayer, uniqueEmail } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { publishGame, createDeveloper } from '../support/factories';

/** Accepts any JSON body (no DTO), to see what the body parser alone lets through. */
@Controller('__odd')
class AnyBodyController {
  @Post('any')
  @Public()
  any(@Body() body: unknown): { received: unknown } {
    return { received: body };
  }
}

@Module({ controllers: [AnyBodyController] })
class AnyBodyModule {}

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Every error answer: the flat shape, small, no stack, no SQL. */
function expectFlat(res: { status: number; body: unknown; text: string }, status: number, error: string): void {
  expect({ status: res.status, error: (res.body as { error?: string }).error }).toEqual({ status, error });
  expect(typeof (res.body as { message?: unknown }).message).toBe('string');
  expect(res.text).not.toMatch(/\n\s+at |SELECT |INSERT |UPDATE |node_modules|\.ts:\d+/);
}

/**
 * Issue 14, "What we saw": odd input answered 500, echoed, or parsed as something else. Each test
 * is named after one finding (CONTRACT §13).
 */
describe('odd input gets 4xx, never 500 (CONTRACT §13)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ imports: [AnyBodyModule] });
  });
  afterAll(async () => t.close());

  const post = (path: string, raw: string, type = 'application/json') => t.http().post(path).set('Content-Type', type).send(raw);

  it('JSON nested ~5,000 levels: 400 INVALID_REQUEST, not 500', async () => {
    const res = await post('/auth/signup', nested(5000));
    expectFlat(res, 400, 'INVALID_REQUEST');
    expectFlat(await post('/__odd/any', nested(5000)), 400, 'INVALID_REQUEST');
  });

  it('JSON nested over 32 levels is refused; 32 levels still parse', async () => {
    expectFlat(await post('/__odd/any', nested(33)), 400, 'INVALID_REQUEST');
    expectFlat(await post('/__odd/any', `[${'['.repeat(32)}${']'.repeat(32)}]`), 400, 'INVALID_REQUEST');
    const ok = await post('/__odd/any', nested(32)).expect(201);
    expect(JSON.stringify(ok.body.received)).toBe(nested(32));
  });

  it('U+0000 in a string: 400 INVALID_REQUEST, not 500', async () => {
    const body = { email: uniqueEmail(), password: 'a-long-password', displayName: 'Nul\u0000Byte' };
    expectFlat(await t.http().post('/auth/signup').send(body), 400, 'INVALID_REQUEST');
    expectFlat(await post('/__odd/any', '{"a":["x\\u0000y"]}'), 400, 'INVALID_REQUEST');
    expectFlat(await post('/__odd/any', '{"a\\u0000b":1}'), 400, 'INVALID_REQUEST');
    const { rows } = await t.db.query('SELECT 1 FROM accounts WHERE lower(email) = lower($1)', [body.email]);
    expect(rows).toHaveLength(0);
  });

  it('a lone surrogate in a string: 400 INVALID_REQUEST, not 500', async () => {
    const email = uniqueEmail();
    const raw = `{"email":"${email}","password":"a-long-password","displayName":"Half \\ud83d"}`;
    expectFlat(await post('/auth/signup', raw), 400, 'INVALID_REQUEST');
    expectFlat(await post('/__odd/any', '{"a":"\\udc00 low first"}'), 400, 'INVALID_REQUEST');
    expectFlat(await post('/__odd/any', '{"\\ud800":1}'), 400, 'INVALID_REQUEST');
    // A well-formed pair is fine.
    await post('/__odd/any', '{"a":"\\ud83d\\ude00"}').expect(201, { received: { a: '😀' } });
    const { rows } = await t.db.query('SELECT 1 FROM accounts WHERE lower(email) = lower($1)', [email]);
    expect(rows).toHaveLength(0);
  });

  it('a cursor decoding to year 0000: 400 INVALID_REQUEST, not 500', async () => {
    const cursor = encodeCursor(['0000-01-01T00:00:00.000000Z', '3b0d6c52-1c0e-4c57-9a0f-7f0f4b8d2e10']);
    expectFlat(await t.http().get(`/api/games?cursor=${cursor}`), 400, 'INVALID_REQUEST');
    for (const odd of ['%00', 'AAAA%00', '-1', encodeCursor(['10000-01-01T00:00:00.000000Z', '3b0d6c52-1c0e-4c57-9a0f-7f0f4b8d2e10'])]) {
      expectFlat(await t.http().get(`/api/games?cursor=${odd}`), 400, 'INVALID_REQUEST');
    }
  });

  it('U+0000 in a query string or a path: 400 INVALID_REQUEST, not 500', async () => {
    expectFlat(await t.http().get('/api/games?limit=1%00'), 400, 'INVALID_REQUEST');
    expectFlat(await t.http().get('/api/games/a%00b'), 400, 'INVALID_REQUEST');
    expectFlat(await t.http().get('/api/games/a%00b/scores'), 400, 'INVALID_REQUEST');
  });

  it('a path that is not valid percent-encoding: 400 INVALID_REQUEST, not 500', async () => {
    expectFlat(await t.http().get('/api/games/%E0%A4%A/scores'), 400, 'INVALID_REQUEST');
    expectFlat(await t.http().get('/api/games/%ED%A0%80'), 400, 'INVALID_REQUEST');
  });

  it('parser error messages do not echo the body', async () => {
    const marker = 'Zq7secretMarker';
    for (const raw of [`{"password": "${marker}"`, `{${marker}}`, `{"a":1}${marker}`, `"${marker}`]) {
      const res = await post('/auth/login', raw);
      expectFlat(res, 400, 'INVALID_REQUEST');
      expect(res.text).not.toContain(marker);
    }
    // Nor do validation messages repeat a key the caller made up beyond a few characters.
    const key = `k${'x'.repeat(5000)}${marker}`;
    const res = await post('/auth/login', JSON.stringify({ email: 'a@b.c', password: 'x', [key]: 1 }));
    expectFlat(res, 400, 'INVALID_REQUEST');
    expect(res.text).not.toContain(marker);
    expect(res.text.length).toBeLessThan(2000);
  });

  it('__proto__ keys are refused with 400 INVALID_REQUEST (constructor too, at any depth)', async () => {
    for (const raw of ['{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{"a":[{"b":{"__proto__":1}}]}', '[{"constructor":1}]']) {
      expectFlat(await post('/__odd/any', raw), 400, 'INVALID_REQUEST');
    }
    const raw = `{"email":"${uniqueEmail()}","password":"a-long-password","displayName":"Proto","__proto__":{"linkPlayer":false}}`;
    expectFlat(await post('/auth/signup', raw), 400, 'INVALID_REQUEST');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('a text/plain body answers 415 UNSUPPORTED_MEDIA_TYPE, not parsed as {}', async () => {
    const res = await post('/__odd/any', '{"a":1}', 'text/plain');
    expectFlat(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonp']) {
      expectFlat(await post('/auth/login', 'email=a%40b.c&password=x', type), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    // A body without any Content-Type is not JSON either.
    const untyped = await t.http().post('/__odd/any').set('Content-Length', '7').unset('Content-Type').send(Buffer.from('{"a":1}'));
    expectFlat(untyped, 415, 'UNSUPPORTED_MEDIA_TYPE');
    // JSON types still work, with or without a charset; an empty non-JSON request is not a body.
    await post('/__odd/any', '{"a":1}', 'application/json; charset=utf-8').expect(201, { received: { a: 1 } });
    await post('/__odd/any', '{"a":1}', 'application/merge-patch+json').expect(201, { received: { a: 1 } });
    await t.http().post('/__odd/any').set('Content-Type', 'text/plain').expect(201);
    await t.http().post('/__odd/any').expect(201);
  });

  it('one 64 KB bad body produced a 652 KB error answer: details are capped at 20 short entries', async () => {
    const body: Record<string, number> = {};
    for (let i = 0; body && JSON.stringify(body).length < 64_000; i++) body[`unknown_property_${i}`] = i;
    const res = await t.http().post('/auth/login').send(body);
    expectFlat(res, 400, 'INVALID_REQUEST');
    expect(res.body.details.length).toBeLessThanOrEqual(20);
    for (const detail of res.body.details) expect(JSON.stringify(detail).length).toBeLessThanOrEqual(400);
    expect(res.text.length).toBeLessThan(8 * 1024);
    // Long values and long keys are cut too.
    const long = await t.http().post('/auth/login').send({ ['k'.repeat(60_000)]: 'v' });
    expectFlat(long, 400, 'INVALID_REQUEST');
    expect(long.text.length).toBeLessThan(2 * 1024);
  });
});

describe('odd input changes nothing', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
  });
  afterAll(async () => t.close());

  it('a text/plain insert-coin is refused with 415 and debits nothing', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    const { sessionId } = await startSession(t, player, game.slug);
    const res = await t
      .http()
      .post(`/api/play/sessions/${sessionId}/insert-coin`)
      .set('Cookie', player.cookie)
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ idempotencyKey: idempotencyKey() }));
    expectFlat(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(res.headers['cache-control']).toBe('no-store');
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(rows[0].n).toBe(0);
    expect((await t.http().get('/api/me').set('Cookie', player.cookie).expect(200)).body.balance).toBe(5);
  });
});
