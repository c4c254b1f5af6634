import type { ErrorCode } from './error-status';

/**
 * A domain error: a code from the one table in error-status.ts, a message for people, and
 * code-specific fields that join the flat body (`balance`, `valid`, ...). No Nest imports.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidRequestError extends AppError {
  constructor(message = 'The request is invalid.', details?: unknown[]) {
    super('INVALID_REQUEST', message, details ? { details } : {});
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'The request body must be JSON (Content-Type: application/json).') {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super('PAYLOAD_TOO_LARGE', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found.', extra: Record<string, unknown> = {}) {
    super('NOT_FOUND', message, extra);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this.') {
    super('FORBIDDEN', message);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Sign in first.', headers: Record<string, string> = {}) {
    super('UNAUTHENTICATED', message, {}, headers);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterMs: number) {
    const ms = Math.max(0, Math.ceil(retryAfterMs));
    super('RATE_LIMITED', 'Too many requests; try again later.', { retryAfterMs: ms },
      { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'The service is temporarily unavailable; try again shortly.') {
    super('SERVICE_UNAVAILABLE', message, {}, { 'Retry-After': '1' });
  }
}
