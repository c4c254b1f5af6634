import { TestApp } from '../support/app';
import { createWorldApp } from '../support/factories';
import { registeredRoutes } from '../support/routes';

interface Operation {
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
}

/**
 * Routes left out of the document on purpose (@ApiExcludeEndpoint / @ApiExcludeController): files
 * and the pages' client-side routes, not API. Any other route must be documented.
 */
const NOT_API = [
  'GET /assets/{name}',
  'GET /demo-games/{game}',
  'GET /demo-games/{game}/{file}',
  'GET /me/*rest',
  'GET /developer/*rest',
  'GET /admin/*rest',
  'GET /checkout',
  'GET /checkout/*rest',
];

describe('OpenAPI covers every route of the app', () => {
  let t: TestApp;
  let operations: Array<{ id: string; op: Operation }>;
  let routes: string[];
  let bodyRoutes: string[];

  beforeAll(async () => {
    t = await createWorldApp();
    const doc = (await t.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })));
    const registered = registeredRoutes(t);
    routes = [...new Set(registered.map((r) => `${r.method} ${r.path}`))];
    bodyRoutes = registered.filter((r) => r.readsBody).map((r) => `${r.method} ${r.path}`);
  });
  afterAll(async () => t.close());

  it('documents every registered route (play, scores, wallet and /api/v1 included), and every documented operation is routed', () => {
    // The walk itself finds the routes of every context.
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/play/sessions', 'POST /api/play/sessions/{id}/insert-coin', 'POST /api/play/sessions/{id}/score', 'GET /api/me/wallet', 'GET /api/v1/sessions/{id}', 'GET /health/live',
      ]),
    );
    expect(routes.length).toBeGreaterThan(80);
    const documented = operations.map((o) => o.id);
    expect(routes.filter((r) => !documented.includes(r) && !NOT_API.includes(r))).toEqual([]);
    expect(documented.filter((d) => !routes.includes(d))).toEqual([]);
    // The exceptions are still routes (a stale entry here would hide nothing, but says something false).
    expect(NOT_API.filter((r) => !routes.includes(r))).toEqual([]);
  });

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

  it('gives every JSON success answer a schema (files: their media type\'s) and every error answer the Error schema (pages: an HTML page)', () => {
    const problems: string[] = [];
    for (const { id, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const json = response.content?.['application/json']?.schema as { $ref?: string } | undefined;
        const htmlPage = !!response.content?.['text/html'] && !response.content?.['application/json'];
        if (Number(status) >= 400 && !htmlPage && json?.$ref !== '#/components/schemas/Error') problems.push(`${id} ${status}: no Error schema`);
        const isJsonSuccess = Number(status) < 300 && Number(status) !== 204 && !response.content?.['text/html'];
        // A file (the SDK: text/javascript) is described by its own media type's schema instead.
        const fileSchema = Object.entries(response.content ?? {}).some(([type, media]) => type !== 'application/json' && type !== 'text/html' && media.schema);
        if (isJsonSuccess && !json && !fileSchema) problems.push(`${id} ${status}: no response schema`);
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
    // Every handler of the app that takes a @Body() (play, scores, wallet, /api/v1 included).
    expect(bodyRoutes).toEqual(expect.arrayContaining(withBody.concat('POST /api/play/sessions', 'POST /api/play/sessions/{id}/insert-coin', 'POST /api/play/sessions/{id}/score')));
    expect(operations.filter((o) => bodyRoutes.includes(o.id) && !o.op.requestBody).map((o) => o.id)).toEqual([]);
    const required = operations.filter((o) => o.op.security?.length && !o.op.security.some((s) => Object.keys(s as object).length === 0));
    expect(required.length).toBeGreaterThan(20);
    expect(required.filter((o) => !o.op.responses['401']).map((o) => o.id)).toEqual([]);
  });
});
