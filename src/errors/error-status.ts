import { declare } from '../registry/declarations';
import type { DeclaredErrorCode } from '../registry/declarations';

/**
 * The error codes every layer answers with, whatever the module: validation, authentication, the
 * body parser, the router, rate limits, the database. Each module declares its own beside its
 * code (`<module>.declarations.ts`); the app composes them with these (src/registry/compose.ts).
 */
export const KERNEL = declare({
  errors: {
    INVALID_REQUEST: 400,
    UNAUTHENTICATED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    CONFLICT: 409,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
  },
});

export type KernelErrorCode = keyof typeof KERNEL.errors;

/** Every error code of the service: the kernel's and those the modules declare. */
export type ErrorCode = KernelErrorCode | DeclaredErrorCode;

/** Error code -> HTTP status, as the app composed it (the kernel's alone before composition). */
export type ErrorStatuses = ReadonlyMap<string, number>;

export const KERNEL_ERROR_STATUSES: ErrorStatuses = new Map(Object.entries(KERNEL.errors));
