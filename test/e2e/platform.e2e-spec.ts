import { Controller, Get, Module, Post, Body } from '@nestjs/common';
import { IsInt, IsString, Max } from 'class-validator';
import { Public } from '../../src/http/public.decorator';
import { createTestApp, TestApp } from '../support/app';

class EchoDto {
  @IsString()
  name!: string;

  @IsInt()
  @Max(10)
  count!: number;
}

@Controller('__test')
class ThrowingController {
  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('secret internal detail at /srv/app.ts:42 SELECT * FROM accounts');
  }

  @Get('slow')
  @Public()
  async slow(): Promise<{ late: true }> {
    await new Promise((resolve) => setTimeout(resolve, 600));
    return { late: true };
  }

  @Post('echo')
  @Public()
  echo(@Body() body: EchoDto): EchoDto {
    return body;
  }
}

@Module({ controllers: [ThrowingController] })
class ThrowingModule {}

describe('platform: flat errors, body limits, health', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ imports: [ThrowingModule] });
  });
  afterAll(async () => t.close());

  it('answers an unknown route with 404 NOT_FOUND in the flat shape', async () => {
    const res = await t.http().get('/no/such/route').expect(404);
    expect(res.body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
  });

  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const res = await t.http().post('/__test/echo').set('Content-Type', 'application/json').send('{"name": ').expect(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String) });
  });

  it('refuses an extra property with 400 and names it in details', async () => {
    const res = await t.http().post('/__test/echo').send({ name: 'a', count: 1, admin: true }).expect(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'admin' })]));
  });

  it('refuses a wrong type with 400 and names the field', async () => {
    const res = await t.http().post('/__test/echo').send({ name: 'a', count: 'seven' }).expect(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'count' })]);
  });

  it('refuses a body that is not an object', async () => {
    const res = await t.http().post('/__test/echo').send([1, 2]).expect(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
  });

  it('accepts a valid body', async () => {
    await t.http().post('/__test/echo').send({ name: 'a', count: 3 }).expect(201, { name: 'a', count: 3 });
  });

  it('answers a 70 KB body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.http().post('/__test/echo').send({ name: 'x'.repeat(70 * 1024), count: 1 }).expect(413);
    expect(res.body).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });

  it('accepts a body of exactly 65,536 bytes but not one byte more', async () => {
    const pad = (size: number) => JSON.stringify({ name: 'x'.repeat(size - JSON.stringify({ name: '', count: 1 }).length), count: 1 });
    const exact = pad(65_536);
    expect(Buffer.byteLength(exact)).toBe(65_536);
    await t.http().post('/__test/echo').set('Content-Type', 'application/json').send(exact).expect(201);
    await t.http().post('/__test/echo').set('Content-Type', 'application/json').send(pad(65_537)).expect(413);
  });

  it('answers an unexpected error with 500 INTERNAL_ERROR and no stack or internals', async () => {
    const res = await t.http().get('/__test/boom').expect(500);
    expect(res.body).toEqual({ error: 'INTERNAL_ERROR', message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/secret|SELECT|\.ts|at /);
  });

  it('reports liveness and readiness', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
    await t.http().get('/health/ready').expect(200, { status: 'ok', details: { database: 'up', rateLimits: 'in-process' } });
  });

  it('returns a request id and security headers, without X-Powered-By', async () => {
    const res = await t.http().get('/health/live').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  describe('request deadline (CONTRACT §16.29)', () => {
    let short: TestApp;

    beforeAll(async () => {
      short = await createTestApp({ imports: [ThrowingModule], requestDeadlineMs: 200 });
    });
    afterAll(async () => short.close());

    it('answers a request still running at the deadline with 503 and Retry-After, and drops the late answer', async () => {
      const started = Date.now();
      const res = await short.http().get('/__test/slow').expect(503);
      expect(Date.now() - started).toBeLessThan(550);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      // The handler finishes after the answer went out; the app carries on serving.
      await new Promise((resolve) => setTimeout(resolve, 600));
      await short.http().post('/__test/echo').send({ name: 'a', count: 1 }).expect(201, { name: 'a', count: 1 });
    });

    it('leaves a request that finishes in time alone', async () => {
      const res = await t.http().get('/__test/slow').expect(200);
      expect(res.body).toEqual({ late: true });
    });
  });
});
