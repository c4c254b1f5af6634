import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import pino, { Logger as Pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Config } from '../config';
import { toFlatError } from '../errors/all-exceptions.filter';
import { ServiceUnavailableError } from '../errors/app-error';
import { tracing } from '../observability/tracing-hooks';
import { contextBindings, loggerFor, REQUEST_ID, RequestContext, requestContext } from './request-context';
import { REQUEST_DEADLINE_MS } from './request-deadline';

/**
 * The one structured logger (pino): JSON lines on stdout, or, when stdout is a terminal (a person
 * running `npm start`), the same lines made readable by pino-pretty: time, level, `[context]`
 * (where the line comes from: the Nest logger's context) and the message, fields below. Log lines
 * name a request by its id and path only: a query may carry a verification token, and cookies,
 * authorization headers and set-cookie never reach a log line (the redaction below is a second
 * guard for objects passed by hand).
 */
export function createRootLogger(config: Pick<Config, 'logLevel'>, options: { pretty?: boolean; destination?: NodeJS.WritableStream } = {}): Pino {
  const settings = {
    level: config.logLevel,
    serializers: { err: pino.stdSerializers.err },
    redact: {
      paths: ['req.headers', 'res.headers', '*.password', '*.token', '*.key', 'password', 'token', 'cookie', 'authorization'],
      censor: '[redacted]',
    },
  };
  if (!(options.pretty ?? process.stdout.isTTY === true)) return options.destination ? pino(settings, options.destination) : pino(settings);
  // Loaded only for a terminal: about 10 MB of resident memory a production process does not need.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
  const pretty = require('pino-pretty') as typeof PinoPretty;
  return pino(
    settings,
    pretty({
      destination: options.destination ?? 1,
      colorize: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
      // Synchronous, so the last lines before an exit are not lost.
      sync: true,
    }),
  );
}

/** Nest's start-up chatter, one line per module and route: useful when debugging, noise otherwise. */
const DEBUG_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** What a metrics recorder is told when a request ends (src/observability/http-metrics.ts). */
export type RequestRecorder = (req: Request, res: Response, seconds: number) => void;

/** A request as `requestLifecycle` leaves it: its id, and its log context (`requestScope` enters it). */
type ServedRequest = Request & { id?: string; logContext?: RequestContext };

/**
 * Each request's life, in one middleware installed first (one closure and one `close` listener per
 * request, where three middlewares with five listeners did this before: on the cheapest route that
 * was measurable, docs/performance.md):
 * - a request id (a well-formed incoming `X-Request-Id`: 1 to 128 characters from `!` to `~`; else
 *   a new one), sent back as `X-Request-Id` on every answer (errors and pages too);
 * - the request's deadline (CONTRACT §16.29): past `deadlineMs` (9 s) it answers 503, whatever is
 *   running (guards included). The work itself is bounded by the database's statement timeout;
 *   this is the backstop. A handler that finishes after it finds the answer sent and its own
 *   reply is dropped (`deadlinePassed`, see the exception filter);
 * - when it ends (`close`, which Node emits after `finish` too): the metrics' `record`, when
 *   metrics are on, with the whole duration; and one log line, `request completed` (or `request
 *   aborted`) at info, `request errored` at error for a 5xx, with `reqId` (and `trace_id` when
 *   traces are on). Health checks are not logged.
 *
 * Written by hand instead of pino-http and nestjs-pino: those built a child logger (serialising and
 * redacting the request) for every request whether anything was logged or not, about 100 us of CPU
 * per request on the 2-core VM (docs/performance.md). Here the request's child logger is made only
 * when the request writes a line (`requestScope` and `loggerFor`). The deadline was an rxjs
 * interceptor once: any global interceptor makes Nest run every request through rxjs (about 4% of
 * the service's CPU under load).
 */
export function requestLifecycle(logger: Pino, options: { deadlineMs?: number; record?: RequestRecorder } = {}) {
  const deadlineMs = options.deadlineMs ?? REQUEST_DEADLINE_MS;
  const record = options.record;
  return (req: ServedRequest, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const url = req.originalUrl ?? req.url ?? '';
    const context: RequestContext = { reqId: id, traceId: tracing.traceId?.() };
    req.logContext = context;
    const deadline = setTimeout(() => {
      if (res.headersSent) return;
      res.locals.deadlinePassed = true;
      const { status, body, headers } = toFlatError(new ServiceUnavailableError('The request took too long; try again shortly.'));
      res.set(headers).status(status).json(body);
    }, deadlineMs);
    res.once('close', () => {
      clearTimeout(deadline);
      const elapsed = performance.now() - started;
      record?.(req, res, elapsed / 1000);
      if (url.startsWith('/health/')) return;
      const failed = res.statusCode >= 500;
      const level = failed ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const fields = { ...contextBindings(context), req: { method: req.method, path: url.split('?')[0] }, res: { statusCode: res.statusCode }, responseTime: Math.round(elapsed) };
      logger[level](fields, failed ? 'request errored' : res.writableFinished ? 'request completed' : 'request aborted');
    });
    next();
  };
}

/**
 * The request's async context (CONTRACT §23: every log line written while serving a request carries
 * its id): from here on, through the guards, the handler and the exception filter, every line of
 * the app's logger (AppLogger, `new Logger(context)`) goes through the request's pino child logger,
 * with `reqId` and, when traces are on, `trace_id`. Installed after the body parsers: a listener of
 * the request stream (where a parser calls `next`) runs outside the context entered before it.
 * One AsyncLocalStorage.run per request, with the context `requestLifecycle` made; the child logger
 * is made only if a line is written.
 */
export function requestScope() {
  return (req: ServedRequest, _res: Response, next: NextFunction): void => {
    if (!req.logContext) throw new Error('requestScope runs after requestLifecycle, which gives each request its log context.');
    requestContext.run(req.logContext, next);
  };
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's logger (its own start-up lines and every `new Logger(context)` in the app) on the same
 * pino logger. Messages may be strings or objects (`logger.error({ err, path }, 'Unexpected
 * error')`); the context Nest appends comes out as `context`.
 */
export class AppLogger implements LoggerService {
  constructor(private readonly logger: Pino) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.call('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.call('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.call(DEBUG_CONTEXTS.has(params[params.length - 1] as string) ? 'debug' : 'info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.call('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.call('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.call('fatal', message, params);
  }

  private call(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    // Inside a request: its child logger (reqId, trace_id).
    const logger = loggerFor(this.logger);
    const fields: Record<string, unknown> = {};
    // Nest passes the logger's context as the last parameter.
    const rest = params.length > 0 ? params.slice(0, -1) : [];
    if (params.length > 0) fields.context = params[params.length - 1];
    if (message instanceof Error) {
      fields.err = message;
      logger[level](fields, ...(rest as []));
    } else if (message !== null && typeof message === 'object') {
      logger[level]({ ...fields, ...(message as object) }, ...(rest as []));
    } else if (level === 'error' && typeof message === 'string' && rest.length === 1 && typeof rest[0] === 'string' && /\n\s*at /.test(rest[0])) {
      // Nest's own exception handlers call error(message, stack, context).
      const err = new Error(message);
      err.stack = rest[0];
      logger.error({ ...fields, err });
    } else {
      logger[level](fields, String(message), ...(rest as []));
    }
  }
}
