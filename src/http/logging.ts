import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { Config } from '../config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Structured JSON logs (pino) with a request id per request, also sent back as `X-Request-Id`.
 * Only the path is logged (a query may carry a verification token); cookies, authorization
 * headers and set-cookie never reach a log line.
 */
export function loggerParams(config: Pick<Config, 'logLevel'>): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      redact: {
        paths: ['req.headers', 'res.headers', '*.password', '*.token', '*.key', 'password', 'token', 'cookie', 'authorization'],
        censor: '[redacted]',
      },
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'info',
      autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health/') },
    },
  };
}
