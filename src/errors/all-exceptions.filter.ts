import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './app-error';
import { ERROR_STATUS, ErrorCode } from './error-status';
import { isDatabaseUnavailable } from './database-errors';

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

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Errors raised by express's body parser before any route runs. */
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

function flat(code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): Flat {
  return { status: ERROR_STATUS[code], body: { ...details, error: code, message }, headers };
}

export function toFlatError(exception: unknown): Flat {
  if (exception instanceof AppError) {
    return flat(exception.code, exception.message, exception.details, exception.headers);
  }
  const parser = bodyParserError(exception);
  if (parser) return parser;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = HTTP_STATUS_CODES[status];
    if (code) {
      const message = code === 'NOT_FOUND' ? 'No such resource.' : exception.message;
      return flat(code, message);
    }
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

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    // The request deadline already answered 503; the handler's late reply (or its error) goes nowhere.
    if (response.headersSent && response.locals?.deadlinePassed) return;
    const result = toFlatError(exception);
    const reqId = (request as { id?: string } | undefined)?.id;
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
