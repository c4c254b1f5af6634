import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(__dirname, '../..');

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  requestBody?: unknown;
}
const doc = JSON.parse(readFileSync(resolve(root, 'docs/openapi.json'), 'utf8')) as {
  info: { license?: { name?: string; identifier?: string; url?: string } };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>> }> };
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, path, op })));

/** Issue 14: "docs/openapi.json: Redocly lint reports 19 errors" and what generators tripped over. */
describe('docs/openapi.json for client generators', () => {
  it('Redocly lint reported 19 errors: now 0 (npm run lint:openapi, redocly.yaml)', async () => {
    const { stdout } = await run(process.execPath, [resolve(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'docs/openapi.json', '--format=json'], {
      cwd: root,
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
    expect(report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('had no servers and no license', () => {
    expect(doc.servers?.[0]?.url).toMatch(/^https?:\/\//);
    expect(doc.info.license?.name).toBeTruthy();
    expect(doc.info.license?.identifier ?? doc.info.license?.url).toBeTruthy();
  });

  it('public operations had no security: each says security: [] (public) or names its real scheme', () => {
    const schemes = new Set(['authSession', 'apiKey']);
    for (const { id, op } of operations) {
      expect({ id, security: Array.isArray(op.security) }).toEqual({ id, security: true });
      for (const requirement of op.security!) for (const name of Object.keys(requirement)) expect({ id, name, known: schemes.has(name) }).toEqual({ id, name, known: true });
    }
    const security = (id: string) => operations.find((o) => o.id === id)!.op.security;
    expect(security('GET /api/games/{slug}/scores')).toEqual([]);
    expect(security('POST /auth/signup')).toEqual([]);
    expect(security('POST /api/play/sessions/{id}/insert-coin')).toEqual([{ authSession: [] }]);
    expect(security('POST /api/v1/insertions/{insertionId}/score')).toEqual([{ apiKey: [] }]);
    // Public, and the cookie (when sent) fills in the caller's unlocks.
    expect(security('GET /api/games/{slug}')).toHaveLength(2);
    expect(security('GET /api/games/{slug}')).toEqual(expect.arrayContaining([{}, { authSession: [] }]));
  });

  it('413/415/429 were undocumented: 400, 413, 415 and 503 are on every operation, 404 wherever the path names something, 429 where limits apply', () => {
    const missing: string[] = [];
    for (const { id, path, op } of operations) {
      // Payment webhooks take any media type (their raw bytes are signed): no 415 there.
      const want = ['400', '413', ...(path.startsWith('/webhooks/') ? [] : ['415']), '503', ...(path.includes('{') ? ['404'] : [])];
      if (op.security?.some((r) => 'authSession' in r || 'apiKey' in r) && !op.security.some((r) => Object.keys(r).length === 0)) want.push('401');
      for (const status of want) {
        const content = op.responses[status]?.content;
        // HTML pages answer their 404 as a page; everything else is the flat error.
        const ok = status === '404' && content?.['text/html'] ? true : content?.['application/json']?.schema?.$ref === '#/components/schemas/Error';
        if (!ok) missing.push(`${id} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    for (const id of [
      'POST /api/play/sessions/{id}/insert-coin',
      'POST /api/play/sessions/{id}/score',
      'POST /api/play/sessions/{id}/score/initials',
      'POST /api/v1/insertions/{insertionId}/score',
      'GET /api/v1/insertions/{insertionId}',
      'GET /api/v1/sessions/{id}',
      'POST /auth/login',
    ]) {
      expect({ id, documents429: '429' in operations.find((o) => o.id === id)!.op.responses }).toEqual({ id, documents429: true });
    }
  });

  it('linkPlayer was required by a strict generated client: it is optional, and no request property carries a schema default', () => {
    const signUp = doc.components.schemas.SignUpDto!;
    expect(signUp.required).not.toContain('linkPlayer');
    expect(signUp.properties.linkPlayer).toMatchObject({ type: 'boolean' });
    const requestSchemas = new Set(
      operations.flatMap(({ op }) => {
        const ref = (op.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)?.content?.['application/json']?.schema?.$ref;
        return ref ? [ref.replace('#/components/schemas/', '')] : [];
      }),
    );
    const withDefaults = [...requestSchemas].flatMap((name) =>
      Object.entries(doc.components.schemas[name]!.properties).filter(([, p]) => 'default' in p).map(([prop]) => `${name}.${prop}`),
    );
    expect(withDefaults).toEqual([]);
  });
});
