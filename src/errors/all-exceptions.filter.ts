import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './app-error';
import { ErrorCode, ErrorStatuses, KERNEL_ERROR_STATUSES } from './error-status';
import { isDatabaseUnavailable } from './database-errors';
import { requestContext } from '../http/request-context';

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  [field: string]: unknown;
}

interface Flat {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Unexpected: log once with its stack. */
  surprise?: unknown;
}

/** Nest's own exceptions (unknown route, guards, pipes) by status, with our messages: theirs may repeat the request. */
const HTTP_STATUS_CODES: Record<number, [ErrorCode, string]> = {
  400: ['INVALID_REQUEST', 'The request is invalid.'],
  401: ['UNAUTHENTICATED', 'Sign in first.'],
  403: ['FORBIDDEN', 'You are not allowed to do this.'],
  404: ['NOT_FOUND', 'No such resource.'],
  405: ['NOT_FOUND', 'No such resource.'],
  413: ['PAYLOAD_TOO_LARGE', 'The request body is larger than 65536 bytes.'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (Content-Type: application/json).'],
  429: ['RATE_LIMITED', 'Too many requests; try again later.'],
  503: ['SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; try again shortly.'],
};

/**
 * Errors raised by express's body parser before any route runs (Nest hands them to the filters
 * wrapped in an HttpException whose `cause` is the original). Their messages quote the body, so
 * each gets a fixed message instead.
 */
function bodyParserError(exception: unknown): Flat | undefined {
  const e = exception as { type?: unknown; status?: unknown; expose?: unknown };
  if (!e || typeof e !== 'object' || typeof e.type !== 'string' || typeof e.status !== 'number') return undefined;
  switch (e.type) {
    case 'entity.too.large':
      return flat('PAYLOAD_TOO_LARGE', 'The request body is larger than 65536 bytes.');
    case 'entity.parse.failed':
      return flat('INVALID_REQUEST', 'The request body is not valid JSON.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return flat('UNSUPPORTED_MEDIA_TYPE', 'The request body encoding is not supported.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return flat('INVALID_REQUEST', 'The request body could not be read.');
    default:
      return e.status >= 400 && e.status < 500 ? flat('INVALID_REQUEST', 'The request body could not be read.') : undefined;
  }
}

/** `details` of any error: at most 20 entries, each of bounded size (a 64 KB body must not make a huge answer). */
export const MAX_DETAILS = 20;
/** Long enough for a sentence that lists a field's choices (CONTRACT §17.2), short enough to bound the answer. */
const MAX_TEXT = 240;

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

function capDetail(detail: unknown): unknown {
  if (typeof detail === 'string') return clip(detail);
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return detail;
  return Object.fromEntries(
    Object.entries(detail).map(([name, value]) => [
      name,
      typeof value === 'string' ? clip(value) : Array.isArray(value) ? value.slice(0, 5).map((v) => (typeof v === 'string' ? clip(v) : v)) : value,
    ]),
  );
}

function flat(code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}, status = KERNEL_ERROR_STATUSES.get(code)!): Flat {
  const body: ErrorBody = { ...details, error: code, message: message.length > 1000 ? `${message.slice(0, 999)}…` : message };
  if (Array.isArray(body.details)) body.details = body.details.slice(0, MAX_DETAILS).map(capDetail);
  // An error is never cached, by the browser or anything between (issue 14).
  return { status, body, headers: { 'Cache-Control': 'no-store', ...headers } };
}

/**
 * The flat answer to any exception. `statuses`: the app's composed error codes (the kernel's
 * alone by default); a code no module declared is a wiring mistake, answered 500 and logged.
 */
export function toFlatError(exception: unknown, statuses: ErrorStatuses = KERNEL_ERROR_STATUSES): Flat {
  if (exception instanceof AppError) {
    const status = statuses.get(exception.code);
    if (status === undefined) return { ...flat('INTERNAL_ERROR', 'Something went wrong on our side.'), surprise: exception };
    return flat(exception.code, exception.message, exception.details, exception.headers, status);
  }
  const parser = bodyParserError(exception);
  if (parser) return parser;
  if (exception instanceof HttpException) {
    const cause = exception.cause;
    if (cause instanceof AppError) return toFlatError(cause, statuses);
    // Express could not decode a path parameter (`%E0%A4%A`): its message quotes the path.
    if (cause instanceof URIError) return flat('INVALID_REQUEST', 'The request path is not valid percent-encoding.');
    const fromParser = bodyParserError(cause);
    if (fromParser) return fromParser;
    const known = HTTP_STATUS_CODES[exception.getStatus()];
    if (known) return flat(known[0], known[1]);
    return { ...flat('INTERNAL_ERROR', 'Something went wrong on our side.'), surprise: exception };
  }
  if (isDatabaseUnavailable(exception)) {
    return flat('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; try again shortly.', {}, { 'Retry-After': '1' });
  }
  return { ...flat('INTERNAL_ERROR', 'Something went wrong on our side.'), surprise: exception };
}

/**
 * The one exception filter: every error from every layer (guards, pipes, body parser, router,
 * services, the database) leaves as `{ error, message, ...details }`. A surprise is logged once
 * with its stack; no stack or SQL ever reaches a body.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  /** `statuses`: the app's composed error codes (src/registry/compose.ts). */
  constructor(private readonly statuses: ErrorStatuses) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    // The request deadline already answered 503; the handler's late reply (or its error) goes nowhere.
    if (response.headersSent && response.locals?.deadlinePassed) return;
    const result = toFlatError(exception, this.statuses);
    // Inside the request's context the logger adds reqId (and trace_id) itself; before it (a body the parser refused) it is named here.
    const reqId = requestContext.getStore() ? undefined : (request as { id?: string } | undefined)?.id;
    if (result.surprise !== undefined) {
      const err = result.surprise instanceof Error ? result.surprise : new Error(String(result.surprise));
      this.logger.error({ err, reqId, method: request?.method, path: request?.path }, 'Unexpected error');
    } else if (result.status === 503) {
      this.logger.warn({ reqId, reason: exception instanceof Error ? exception.message : String(exception) }, 'Database unavailable');
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
    response.status(result.status).json(result.body);
  }
}
