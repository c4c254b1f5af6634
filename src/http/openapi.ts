import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES } from '../errors/error-status';

export const COOKIE_SECURITY = 'authSession';
export const API_KEY_SECURITY = 'apiKey';

/** The flat error shape shared by every endpoint (spec §7). */
const ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: ERROR_CODES, description: 'Machine-readable error code' },
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
};

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Arcade Coin Service')
    .setDescription(
      'Play sessions, coin insertion, scores, leaderboards and achievements for web arcades. ' +
        'Player endpoints (`/api/play/...`) use the `auth_session` cookie; developer endpoints (`/api/v1/...`) use an API key ' +
        '(`Authorization: Bearer svc_live_...` or `svc_test_...`). Every error has the flat shape `{ error, message, ... }`.',
    )
    .setVersion('1.0.0')
    .addCookieAuth('auth_session', { type: 'apiKey', in: 'cookie', name: 'auth_session', description: 'Login session cookie set by /auth/login' }, COOKIE_SECURITY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: svc_live_... or svc_test_...' }, API_KEY_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  document.components = document.components ?? {};
  document.components.schemas = { ...(document.components.schemas ?? {}), Error: ERROR_SCHEMA as never };
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

export function serveOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Arcade Coin Service API',
  });
  return document;
}
