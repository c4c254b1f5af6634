/**
 * Which database failures mean "the database is unreachable or too slow" (answered 503 with
 * Retry-After) rather than a bug (500). Raw `pg` errors and TypeORM's wrappers both arrive here.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57014', // query_canceled: statement_timeout
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '40001', // serialization_failure, left after retries
  '40P01', // deadlock_detected
  '25P03', // idle_in_transaction_session_timeout
]);

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection is not established',
  'Query read timeout',
  'the database system is',
  'Cannot use a pool after calling end',
  'terminating connection',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_NODE_CODES.has(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    current = e.driverError ?? e.cause;
  }
  return false;
}

/**
 * The connection under a transaction was lost between two statements (the pg client reported it
 * and the QueryRunner let it go): answered like any lost connection (SQLSTATE class 08, 503).
 */
export class ConnectionLostError extends Error {
  readonly code = '08006';

  constructor(cause: unknown) {
    super('Connection terminated: the database connection was lost during the transaction.', { cause });
    this.name = 'ConnectionLostError';
  }
}

/** The SQLSTATEs of a transaction that lost a race and succeeds when run again (UnitOfWork retries it once). */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export function isRetryableTransactionError(error: unknown): boolean {
  const { code } = pgError(error);
  return code !== undefined && RETRYABLE_SQLSTATES.has(code);
}

/**
 * The connection itself failed or was never made (server down, restarting, unreachable,
 * terminated): what the outage log line and the connectivity state are about. A statement timeout
 * or a deadlock is not one.
 */
export function isConnectionFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    const code = typeof e.code === 'string' ? e.code : '';
    if (code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08') || UNAVAILABLE_NODE_CODES.has(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
    current = e.driverError ?? e.cause;
  }
  return false;
}

const CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'Connection is not established',
  'the database system is',
  'terminating connection',
];

/** The SQLSTATE and constraint of a (possibly wrapped) PostgreSQL error. */
export function pgError(error: unknown): { code?: string; constraint?: string } {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  if (!e || typeof e !== 'object') return {};
  if (e.driverError) return { code: e.driverError.code, constraint: e.driverError.constraint };
  return { code: e.code, constraint: e.constraint };
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: actual } = pgError(error);
  return code === '23505' && (constraint === undefined || actual === constraint);
}

/** A CHECK constraint, or a trigger refusing with check_violation and this constraint name. */
export function isCheckViolation(error: unknown, constraint: string): boolean {
  const { code, constraint: actual } = pgError(error);
  return code === '23514' && actual === constraint;
}
