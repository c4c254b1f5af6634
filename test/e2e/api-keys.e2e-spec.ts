import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { TestApp } from '../support/app';
import { AuthProbeModule } from '../support/auth-probe';
import { createTestDatabase } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApiKey, createDeveloper, createWorldApp, Developer, signUpPlayer } from '../support/factories';
import { MAIN, startService } from '../support/process';

const REALM = 'Bearer realm="arcade"';
const INVALID = 'Bearer realm="arcade", error="invalid_token"';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('API keys (CONTRACT §3, §11; spec §5)', () => {
  let t: TestApp;
  let dev: Developer;
  let other: Developer;

  beforeAll(async () => {
    t = await createWorldApp({ imports: [AuthProbeModule] });
    dev = await createDeveloper(t);
    other = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  describe('portal', () => {
    it('creates a key and shows it once: svc_live_/svc_test_ + at least 32 URL-safe characters, prefix its first 12', async () => {
      for (const kind of ['live', 'test'] as const) {
        const res = await t.http().post('/api/portal/keys').set('Cookie', dev.cookie).send({ kind, name: `${kind} backend` }).expect(201);
        expect(res.body).toEqual({ id: expect.any(String), kind, name: `${kind} backend`, key: expect.any(String), prefix: expect.any(String), createdAt: expect.any(String) });
        expect(res.body.key).toMatch(new RegExp(`^svc_${kind}_[A-Za-z0-9_-]{32,}$`));
        expect(res.body.prefix).toBe(res.body.key.slice(0, 12));
      }
    });

    it('gives every key its own random secret', async () => {
      const keys = await Promise.all(Array.from({ length: 5 }, () => createApiKey(t, dev, 'test')));
      expect(new Set(keys.map((k) => k.key)).size).toBe(5);
    });

    it('stores only the SHA-256 of the key: the key itself is nowhere in the database row', async () => {
      const { id, key } = await createApiKey(t, dev, 'live');
      const row = await t.db.query('SELECT key_hash, prefix FROM api_keys WHERE id = $1', [id]);
      expect(row.rows[0].key_hash).toEqual(createHash('sha256').update(key).digest());
      expect(row.rows[0].prefix).toBe(key.slice(0, 12));
      const secretPart = key.slice(12);
      const anywhere = await t.db.query("SELECT count(*)::int AS n FROM api_keys k WHERE k::text LIKE '%' || $1 || '%'", [secretPart]);
      expect(anywhere.rows[0].n).toBe(0);
    });

    it('lists keys newest first with prefix, name, kind, createdAt, lastUsedAt, revokedAt and never the key', async () => {
      const fresh = await createDeveloper(t);
      const first = await createApiKey(t, fresh, 'live', 'one');
      const second = await createApiKey(t, fresh, 'test', 'two');
      const res = await t.http().get('/api/portal/keys').set('Cookie', fresh.cookie).expect(200);
      expect(res.body).toEqual([
        { id: second.id, kind: 'test', name: 'two', prefix: second.key.slice(0, 12), createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
        { id: first.id, kind: 'live', name: 'one', prefix: first.key.slice(0, 12), createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
      ]);
      expect(res.text).not.toContain(first.key);
      expect(res.text).not.toContain(second.key);
    });

    it.each([
      ['an unknown kind', { kind: 'prod', name: 'x' }, 'kind'],
      ['an empty name', { kind: 'live', name: '' }, 'name'],
      ['a name over 40 characters', { kind: 'live', name: 'x'.repeat(41) }, 'name'],
      ['a missing kind', { name: 'x' }, 'kind'],
    ])('answers 400 INVALID_REQUEST for %s', async (_name, body, field) => {
      const res = await t.http().post('/api/portal/keys').set('Cookie', dev.cookie).send(body).expect(400);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('revokes with 204; the key answers 401 from then on and the list shows revokedAt', async () => {
      const { id, key } = await createApiKey(t, dev, 'live');
      await t.http().get('/__probe/api-key').set('Authorization', `Bearer ${key}`).expect(200);
      await t.http().delete(`/api/portal/keys/${id}`).set('Cookie', dev.cookie).expect(204);
      const res = await t.http().get('/__probe/api-key').set('Authorization', `Bearer ${key}`).expect(401);
      expect(res.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
      expect(res.headers['www-authenticate']).toBe(INVALID);
      const list = await t.http().get('/api/portal/keys').set('Cookie', dev.cookie).expect(200);
      const revokedAt = list.body.find((k: { id: string }) => k.id === id).revokedAt;
      expect(revokedAt).toEqual(expect.any(String));
      // Revoking again changes nothing.
      await t.http().delete(`/api/portal/keys/${id}`).set('Cookie', dev.cookie).expect(204);
      const again = await t.http().get('/api/portal/keys').set('Cookie', dev.cookie).expect(200);
      expect(again.body.find((k: { id: string }) => k.id === id).revokedAt).toBe(revokedAt);
    });

    it('answers 404 NOT_FOUND for another developer\'s key, an unknown id and a non-uuid id; 400 over 64 characters', async () => {
      const { id, key } = await createApiKey(t, dev, 'live');
      expect((await t.http().delete(`/api/portal/keys/${id}`).set('Cookie', other.cookie).expect(404)).body.error).toBe('NOT_FOUND');
      await t.http().get('/__probe/api-key').set('Authorization', `Bearer ${key}`).expect(200);
      const list = await t.http().get('/api/portal/keys').set('Cookie', other.cookie).expect(200);
      expect(list.body.map((k: { id: string }) => k.id)).not.toContain(id);
      await t.http().delete(`/api/portal/keys/${UNKNOWN_ID}`).set('Cookie', dev.cookie).expect(404);
      await t.http().delete('/api/portal/keys/not-a-uuid').set('Cookie', dev.cookie).expect(404);
      expect((await t.http().delete(`/api/portal/keys/${'a'.repeat(65)}`).set('Cookie', dev.cookie).expect(400)).body.error).toBe('INVALID_REQUEST');
    });

    it('refuses a cross-origin key creation with 403 FORBIDDEN', async () => {
      const res = await t.http().post('/api/portal/keys').set('Cookie', dev.cookie).set('Origin', 'https://evil.example').send({ kind: 'live', name: 'x' }).expect(403);
      expect(res.body.error).toBe('FORBIDDEN');
    });
  });

  describe('ApiKeyAuth', () => {
    it('accepts a live and a test key and tells the route whose key it is; records lastUsedAt', async () => {
      const live = await createApiKey(t, dev, 'live');
      const res = await t.http().get('/__probe/api-key').set('Authorization', `Bearer ${live.key}`).expect(200);
      expect(res.body).toEqual({ keyId: live.id, developerId: dev.developerId, kind: 'live' });
      const test = await createApiKey(t, dev, 'test');
      expect((await t.http().get('/__probe/api-key').set('Authorization', `Bearer ${test.key}`).expect(200)).body.kind).toBe('test');
      const list = await t.http().get('/api/portal/keys').set('Cookie', dev.cookie).expect(200);
      expect(list.body.find((k: { id: string }) => k.id === live.id).lastUsedAt).toEqual(expect.any(String));
    });

    it('answers a missing key with 401 and WWW-Authenticate: Bearer realm="arcade" (no error attribute)', async () => {
      const res = await t.http().get('/__probe/api-key').expect(401);
      expect(res.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
      expect(res.headers['www-authenticate']).toBe(REALM);
    });

    it.each([
      ['a malformed key', 'Bearer not-a-key'],
      ['a key of another format', `Bearer svc_prod_${'a'.repeat(43)}`],
      ['a too short key', 'Bearer svc_live_abc'],
      ['an unknown well-formed key', `Bearer svc_live_${'A'.repeat(43)}`],
      ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['an empty bearer', 'Bearer '],
      ['an empty header', ''],
    ])('answers %s with 401 and error="invalid_token"', async (_name, header) => {
      const res = await t.http().get('/__probe/api-key').set('Authorization', header).expect(401);
      expect(res.body.error).toBe('UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toBe(INVALID);
    });

    it('answers every 401 of the real developer endpoints with WWW-Authenticate', async () => {
      const { id, key } = await createApiKey(t, dev, 'live');
      await t.http().delete(`/api/portal/keys/${id}`).set('Cookie', dev.cookie).expect(204);
      const cases: Array<[string | undefined, string]> = [
        [undefined, REALM],
        ['Bearer nope', INVALID],
        [`Bearer svc_test_${'B'.repeat(43)}`, INVALID],
        [`Bearer ${key}`, INVALID],
      ];
      for (const [header, expected] of cases) {
        for (const path of [`/api/v1/sessions/${UNKNOWN_ID}`, `/api/v1/insertions/${UNKNOWN_ID}`]) {
          const request = t.http().get(path);
          if (header !== undefined) request.set('Authorization', header);
          const res = await request.expect(401);
          expect(res.body.error).toBe('UNAUTHENTICATED');
          expect(res.headers['www-authenticate']).toBe(expected);
        }
      }
    });

    it('requires a live key where asked: a test key answers 403 LIVE_KEY_REQUIRED, after the 401 checks', async () => {
      const test = await createApiKey(t, dev, 'test');
      const res = await t.http().post('/__probe/api-key-live').set('Authorization', `Bearer ${test.key}`).expect(403);
      expect(res.body).toEqual({ error: 'LIVE_KEY_REQUIRED', message: expect.any(String) });
      await t.http().post('/__probe/api-key-live').expect(401);
      const live = await createApiKey(t, dev, 'live');
      await t.http().post('/__probe/api-key-live').set('Authorization', `Bearer ${live.key}`).expect(200);
    });

    it('ignores cookies: a signed-in developer without a key gets 401', async () => {
      await t.http().get('/__probe/api-key').set('Cookie', dev.cookie).expect(401);
    });
  });
});

describe('API keys never reach a log line', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
  });

  it('logs requests that create, use and revoke a key without the key', async () => {
    const service = await startService({ DATABASE_URL: await createTestDatabase(), LOG_LEVEL: 'trace', ADMIN_EMAIL, ADMIN_PASSWORD });
    try {
      const post = (path: string, body: unknown, cookie?: string) =>
        fetch(`${service.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) }, body: JSON.stringify(body) });
      const login = await post('/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(login.status).toBe(200);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect((await post('/api/portal/developer', { displayName: 'Logger' }, cookie)).status).toBe(201);
      const created = await post('/api/portal/keys', { kind: 'live', name: 'logged' }, cookie);
      expect(created.status).toBe(201);
      const { id, key } = (await created.json()) as { id: string; key: string };
      const use = await fetch(`${service.url}/api/v1/sessions/${UNKNOWN_ID}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(use.status).toBe(404);
      const revoke = await fetch(`${service.url}/api/portal/keys/${id}`, { method: 'DELETE', headers: { Cookie: cookie } });
      expect(revoke.status).toBe(204);
      const refused = await fetch(`${service.url}/api/v1/sessions/${UNKNOWN_ID}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(refused.status).toBe(401);
      await service.stop('SIGTERM');
      const output = service.output();
      // The requests were logged (so the check below looks at real log lines) ...
      expect(output).toContain('/api/portal/keys');
      // ... and neither the key, its secret part, nor the login cookie's token is in any of them.
      expect(output).not.toContain(key);
      expect(output).not.toContain(key.slice(12));
      expect(output).not.toContain(cookie.slice('auth_session='.length));
      expect(output).not.toContain(ADMIN_PASSWORD);
    } finally {
      await service.stop('SIGKILL');
    }
  });
});

describe('GET /developer/keys (the portal page)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
  });
  afterAll(async () => t.close());

  it('redirects a signed-out visitor to the login page with next', async () => {
    const res = await t.http().get('/developer/keys').expect(302);
    expect(res.headers.location).toBe('/auth/login?next=%2Fdeveloper%2Fkeys');
    expect((await t.http().get('/developer').expect(302)).headers.location).toBe('/auth/login?next=%2Fdeveloper');
  });

  it('answers the 404 page to an account without role developer, and gives a developer the key forms', async () => {
    const player = await signUpPlayer(t, { verified: true });
    const missing = await t.http().get('/developer/keys').set('Cookie', player.cookie).expect(404);
    expect(missing.text).toContain('<h1>Not found</h1>');
    const dev = await createDeveloper(t);
    const page = await t.http().get('/developer/keys').set('Cookie', dev.cookie).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toMatch(/<script src="\/assets\/pages\.[0-9a-f]{12}\.js" defer><\/script>/);
    expect(page.text).toContain('aria-labelledby="create-key-heading"');
    expect(page.text).toContain('<caption>Your keys</caption>');
    expect(page.text).toContain('<label for="key-name">');
  });
});
