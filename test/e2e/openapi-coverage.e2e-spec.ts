import { TestApp } from '../support/app';
import { createWorldApp } from '../support/factories';

interface Operation {
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
}

/** Paths of the identity, developer portal, admin and catalogue endpoints (CONTRACT §2–§5). */
const OWN = /^\/(auth\/|api\/me(\/player)?$|api\/portal\/(developer|games|keys|earnings)|api\/admin\/(users|versions|games)|api\/games(\/\{slug\})?$|developer)/;

describe('OpenAPI covers the identity, portal, admin and catalogue endpoints', () => {
  let t: TestApp;
  let operations: Array<{ id: string; op: Operation }>;

  beforeAll(async () => {
    t = await createWorldApp();
    const doc = (await t.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths)
      .filter(([path]) => OWN.test(path))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })));
  });
  afterAll(async () => t.close());

  it('lists every endpoint of the contract tables', () => {
    const ids = operations.map((o) => o.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'POST /auth/signup', 'GET /auth/login', 'POST /auth/login', 'POST /auth/logout', 'POST /auth/verify-email', 'GET /auth/verify-email',
        'GET /api/me', 'POST /api/me/player',
        'POST /api/portal/developer', 'POST /api/portal/games', 'GET /api/portal/games', 'GET /api/portal/games/{gameId}', 'PATCH /api/portal/games/{gameId}',
        'POST /api/portal/games/{gameId}/versions', 'GET /api/portal/games/{gameId}/versions', 'POST /api/portal/games/{gameId}/publish',
        'POST /api/portal/games/{gameId}/unpublish', 'GET /api/portal/games/{gameId}/achievements', 'POST /api/portal/games/{gameId}/achievements',
        'PATCH /api/portal/games/{gameId}/achievements/{key}', 'POST /api/portal/games/{gameId}/achievements/{key}/retire',
        'POST /api/portal/keys', 'GET /api/portal/keys', 'DELETE /api/portal/keys/{id}', 'GET /api/portal/earnings/daily',
        'POST /api/admin/users/{userId}/verify-email', 'POST /api/admin/versions/{versionId}/approve', 'POST /api/admin/versions/{versionId}/reject',
        'POST /api/admin/games/{gameId}/suspend', 'POST /api/admin/games/{gameId}/unsuspend',
        'GET /api/games', 'GET /api/games/{slug}',
      ]),
    );
  });

  it('gives every JSON success answer a schema and every error answer the Error schema (pages: an HTML page)', () => {
    const problems: string[] = [];
    for (const { id, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const json = response.content?.['application/json']?.schema as { $ref?: string } | undefined;
        const htmlPage = !!response.content?.['text/html'] && !response.content?.['application/json'];
        if (Number(status) >= 400 && !htmlPage && json?.$ref !== '#/components/schemas/Error') problems.push(`${id} ${status}: no Error schema`);
        const isJsonSuccess = Number(status) < 300 && Number(status) !== 204 && !response.content?.['text/html'];
        if (isJsonSuccess && !json) problems.push(`${id} ${status}: no response schema`);
      }
      if (!Object.keys(op.responses).some((s) => Number(s) < 400)) problems.push(`${id}: no success answer`);
    }
    expect(problems).toEqual([]);
  });

  it('documents a request body wherever the endpoint reads one, and 401 wherever a credential is required', () => {
    const withBody = ['POST /auth/signup', 'POST /auth/login', 'POST /auth/verify-email', 'POST /api/me/player', 'POST /api/portal/developer', 'POST /api/portal/games',
      'PATCH /api/portal/games/{gameId}', 'POST /api/portal/games/{gameId}/versions', 'POST /api/portal/games/{gameId}/publish',
      'POST /api/portal/games/{gameId}/achievements', 'PATCH /api/portal/games/{gameId}/achievements/{key}', 'POST /api/portal/keys', 'POST /api/admin/versions/{versionId}/reject'];
    const missing = operations.filter((o) => withBody.includes(o.id) && !o.op.requestBody).map((o) => o.id);
    expect(missing).toEqual([]);
    const required = operations.filter((o) => o.op.security?.length && !o.op.security.some((s) => Object.keys(s as object).length === 0));
    expect(required.length).toBeGreaterThan(20);
    expect(required.filter((o) => !o.op.responses['401']).map((o) => o.id)).toEqual([]);
  });
});
