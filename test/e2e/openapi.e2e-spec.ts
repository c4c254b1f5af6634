import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestApp, TestApp } from '../support/app';

const SNAPSHOT = resolve(__dirname, '../../docs/openapi.json');

describe('OpenAPI document', () => {
  let t: TestApp;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the served JSON document, walked path by path
  let served: Record<string, any>;

  beforeAll(async () => {
    t = await createTestApp();
    served = (await t.http().get('/openapi.json').expect(200).expect('Content-Type', /json/)).body;
  });
  afterAll(async () => t.close());

  it('is OpenAPI 3.1.0 and passes an independent validator', async () => {
    expect(served.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(served));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('declares the flat error shape and both security schemes', () => {
    expect(served.components.schemas.Error.required).toEqual(['error', 'message']);
    expect(served.components.securitySchemes.authSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'auth_session' });
    expect(served.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('serves interactive documentation at /docs', async () => {
    const res = await t.http().get('/docs/').redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });

  // Always compares, whatever the environment says. Regenerate with `npm run openapi:snapshot`
  // (test/tools/openapi-snapshot.write.ts, refused in CI), then review and commit the difference.
  it('matches the committed snapshot (docs/openapi.json)', () => {
    expect(existsSync(SNAPSHOT)).toBe(true);
    expect(served).toEqual(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
  });
});
