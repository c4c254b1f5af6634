import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

/** What every log line written while serving a request carries (CONTRACT §23). */
export interface RequestContext {
  /** The request's id, as its answer's `X-Request-Id`. */
  readonly reqId: string;
  /** The trace the request is part of, when traces are on (src/tracing.ts). */
  readonly traceId: string | undefined;
  /** The request's child logger, made at its first log line (most requests write none). */
  logger?: Logger;
  /** The logger `logger` was made from (one app per process in production; tests run several). */
  root?: Logger;
}

/** The request being served, for the logger (src/http/logging.ts). */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/** CONTRACT §23: a caller's `X-Request-Id` is kept when it is 1 to 128 characters from `!` to `~` (ASCII 0x21–0x7E). */
export const REQUEST_ID = /^[\x21-\x7E]{1,128}$/;

/** The logger for a line written now: the request's child of `root` (with reqId and trace_id), or `root` outside a request. */
export function loggerFor(root: Logger): Logger {
  const context = requestContext.getStore();
  if (!context) return root;
  if (context.logger && context.root === root) return context.logger;
  context.logger = root.child(contextBindings(context));
  context.root = root;
  return context.logger;
}

/** The fields a request's log lines carry: `reqId`, and `trace_id` when traces are on. */
export function contextBindings(context: RequestContext): Record<string, string> {
  return context.traceId ? { reqId: context.reqId, trace_id: context.traceId } : { reqId: context.reqId };
}
