import express from 'express';
import request from 'supertest';
import { jsonBody, MAX_JSON_DEPTH, oddJson } from './json-body';

describe('oddJson', () => {
  it('accepts ordinary bodies and nesting up to the limit', () => {
    expect(oddJson({ idempotencyKey: 'abc-12345', nested: [{ a: '😀' }] })).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = { a: deep };
    expect(oddJson(deep)).toBeUndefined();
    expect(oddJson({ a: deep })).toMatch(/deeper than 32/);
  });

  it('refuses U+0000, lone surrogates and prototype keys anywhere, keys included', () => {
    expect(oddJson({ a: ['x\u0000'] })).toMatch(/U\+0000/);
    expect(oddJson({ ['k\u0000']: 1 })).toMatch(/U\+0000/);
    expect(oddJson({ a: '\ud800' })).toMatch(/lone surrogate/);
    expect(oddJson(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toMatch(/__proto__/);
    expect(oddJson([{ constructor: 1 }])).toMatch(/constructor/);
  });
});

describe('jsonBody', () => {
  const app = express();
  // A route with a parser of its own, mounted first (as the payment webhooks read raw bytes).
  app.use('/raw', express.raw({ type: () => true }));
  app.use(jsonBody(65_536));
  app.post('/raw', (req, res) => void res.json({ bytes: (req.body as Buffer).length }));
  app.post('/json', (req, res) => void res.json({ body: req.body as unknown }));
  app.use((error: { code?: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(499).json({ code: error.code }));

  it('leaves a body another parser already read to it, whatever its media type', async () => {
    await request(app).post('/raw').set('Content-Type', 'text/plain').send('hello').expect(200, { bytes: 5 });
  });

  it('answers a non-JSON body elsewhere with UNSUPPORTED_MEDIA_TYPE', async () => {
    await request(app).post('/json').set('Content-Type', 'text/plain').send('hello').expect(499, { code: 'UNSUPPORTED_MEDIA_TYPE' });
    await request(app).post('/json').send({ a: 1 }).expect(200, { body: { a: 1 } });
  });
});
