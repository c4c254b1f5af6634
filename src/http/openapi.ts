import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ComposedDeclarations, DECLARATIONS } from '../registry/compose';

export const COOKIE_SECURITY = 'authSession';
export const API_KEY_SECURITY = 'apiKey';

/** The flat error shape shared by every endpoint (spec §7), with every error code the app's modules declare. */
const errorSchema = (codes: string[]) => ({
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: codes, description: 'Machine-readable error code' },
    message: { type: 'string', description: 'Human-readable explanation' },
    details: {
      type: 'array',
      description: 'On INVALID_REQUEST: the fields that failed validation',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, problems: { type: 'array', items: { type: 'string' } } },
      },
    },
    retryAfterMs: { type: 'integer', minimum: 0, description: 'On RATE_LIMITED' },
    balance: { type: 'integer', minimum: 0, description: 'On INSUFFICIENT_COINS' },
    coinsPerCredit: { type: 'integer', minimum: 1, maximum: 5, description: 'On INSUFFICIENT_COINS' },
    valid: { type: 'boolean', description: 'false on insertion verification NOT_FOUND' },
  },
  additionalProperties: true,
});

/**
 * A string property whose values are a table the app composes from its modules' declarations
 * (src/registry): `@ApiProperty({ ...declaredEnum('auditActions'), example: 'user.ban' })`. The
 * decorator runs before the app is composed, so the document fills the `enum` in when it is built.
 */
export type DeclaredTable = 'errors' | 'auditActions' | 'auditTargets';
const DECLARED_ENUM = 'x-declared-enum';

export function declaredEnum(table: DeclaredTable): { type: 'string'; [DECLARED_ENUM]: DeclaredTable } {
  return { type: 'string', [DECLARED_ENUM]: table };
}

/** Sorted (error codes by status first), so the document does not change with the order of FEATURES. */
function declaredValues(declarations: ComposedDeclarations, table: DeclaredTable): string[] {
  const byName = (a: string, b: string) => a.localeCompare(b);
  if (table === 'errors') return [...declarations.errors].sort(([a, x], [b, y]) => x - y || byName(a, b)).map(([code]) => code);
  if (table === 'auditActions') return [...declarations.auditActions.keys()].sort(byName);
  return [...new Set(declarations.auditActions.values())].sort(byName);
}

function fillDeclaredEnums(value: unknown, declarations: ComposedDeclarations): void {
  if (!value || typeof value !== 'object') return;
  const node = value as Record<string, unknown>;
  const table = node[DECLARED_ENUM] as DeclaredTable | undefined;
  if (table !== undefined) {
    node.enum = declaredValues(declarations, table);
    delete node[DECLARED_ENUM];
  }
  for (const child of Object.values(node)) fillDeclaredEnums(child, declarations);
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const RETRY_AFTER_ONE = { 'Retry-After': { description: 'Seconds to wait: 1', schema: { type: 'integer', minimum: 1 } } };

/**
 * Answers any operation can give, whatever its route does: body parsing runs before routing (400,
 * 413, 415), and a request that cannot reach the database in time is 503. Added to every
 * operation that does not describe the status itself (see `withCommonAnswers`), written out in
 * full rather than as `$ref`s, which some generators and checkers do not follow.
 */
export const COMMON_RESPONSES = {
  400: {
    description:
      'INVALID_REQUEST: the body is not valid JSON, or is nested deeper than 32 levels, or holds U+0000, a lone surrogate, a `__proto__` or ' +
      '`constructor` key; or a path, query or body value breaks its rule (`details` names the fields: at most 20 entries)',
  },
  404: { description: 'NOT_FOUND: no such resource (or one that is not yours)' },
  413: { description: 'PAYLOAD_TOO_LARGE: the body is over 65,536 bytes' },
  415: { description: 'UNSUPPORTED_MEDIA_TYPE: a non-empty body that is not JSON (`application/json` or `application/*+json`)' },
  503: {
    description: 'SERVICE_UNAVAILABLE: the database is unreachable or the request took longer than 9 seconds; retry after `Retry-After` (1) seconds',
    headers: RETRY_AFTER_ONE,
  },
} as const;

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * What makes the document usable by client generators and linters (issue 14): every operation
 * states its security (`security: []` when public: a route without an auth decorator is public,
 * the route-auth test makes sure that is deliberate), and the answers every route can give
 * (COMMON_RESPONSES: 400, 413, 415, 503; 404 where the path names a resource) unless the route
 * describes them itself. Route-specific answers (401/403 from the auth decorators, 409, 410, 422,
 * 429 ...) stay with each route: `@ApiErrors({ 404: 'NOT_FOUND: ...', 409: '...' })`.
 */
function withCommonAnswers(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.security ??= [];
      const responses = operation.responses;
      for (const [status, common] of Object.entries(COMMON_RESPONSES)) {
        if (status === '404' && !path.includes('{')) continue;
        // Payment webhooks read the provider's raw bytes whatever their media type (docs/payments.md).
        if (status === '415' && path.startsWith('/webhooks/')) continue;
        responses[status] ??= { description: common.description, content: ERROR_CONTENT, ...('headers' in common ? { headers: common.headers } : {}) };
      }
    }
  }
}

export function buildOpenApiDocument(app: INestApplication, publicOrigin: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Arcade Coin Service')
    .setDescription(
      'Play sessions, coin insertion, scores, leaderboards and achievements for web arcades. ' +
        'Player endpoints (`/api/play/...`) use the `auth_session` cookie; developer endpoints (`/api/v1/...`) use an API key ' +
        '(`Authorization: Bearer svc_live_...` or `svc_test_...`). Every error has the flat shape `{ error, message, ... }`.\n\n' +
        'Request bodies are JSON (`application/json`), at most 65,536 bytes and 32 levels deep; strings may not hold U+0000 or lone ' +
        'surrogates, and no key may be `__proto__` or `constructor`. Answers with user or account data, and every error, carry ' +
        '`Cache-Control: no-store`.',
    )
    .setVersion('1.0.0')
    .addServer(publicOrigin, 'This service (PUBLIC_ORIGIN)')
    .addCookieAuth('auth_session', { type: 'apiKey', in: 'cookie', name: 'auth_session', description: 'Login session cookie set by /auth/login' }, COOKIE_SECURITY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: svc_live_... or svc_test_...' }, API_KEY_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  document.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as OpenAPIObject['info']['license'];
  document.components = document.components ?? {};
  const declarations = app.get<ComposedDeclarations>(DECLARATIONS);
  document.components.schemas = { ...(document.components.schemas ?? {}), Error: errorSchema(declaredValues(declarations, 'errors')) as never };
  fillDeclaredEnums(document.components.schemas, declarations);
  withCommonAnswers(document);
  return sortKeys(document);
}

/** Stable key order, so the committed snapshot diffs cleanly. */
function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    ) as T;
  }
  return value;
}

/**
 * Serves the document at /openapi.json, /openapi.yaml and /docs. It is built on the first request
 * that asks for it, not at start-up (about 160 ms of CPU on every boot: every test app, every
 * instance of a rolling restart), then kept: the routes cannot change after start-up.
 */
export function serveOpenApi(app: INestApplication, publicOrigin: string): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, publicOrigin), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Arcade Coin Service API',
  });
}
