import type { Server } from 'node:http';

/**
 * How long the HTTP server holds a connection that is not doing its part (issue 26 item 12: slow
 * headers held a socket 72 s, a silent one 79 s, a trickled body 130 s under Node's defaults of
 * 60 s, 300 s and a 30 s check). A reverse proxy sends a request's headers at once and a body at
 * its own speed, so these bounds only ever cut a client that stalls; docs/operations.md says what a
 * proxy in front should be set to.
 */
/** From connecting (or the end of the previous response) until the request's headers are complete; answered 408. */
export const HEADERS_TIMEOUT_MS = 15_000;
/** From connecting until the whole request, body included, is received; answered 408. Every request is answered within 10 s anyway (REQUEST_DEADLINE_MS). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** An idle keep-alive connection is closed after this (Node's own default, stated: below HEADERS_TIMEOUT_MS as Node asks). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** How often Node checks the two timeouts above (default 30 s, which let them overrun by up to that). */
const CHECK_EVERY_MS = 1_000;

/** Sets the bounds on the app's server; before it listens (the check interval is armed on `listening`). */
export function applyServerTimeouts(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = CHECK_EVERY_MS;
}
