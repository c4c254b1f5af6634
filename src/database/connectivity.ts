import { Logger } from '@nestjs/common';
import { isConnectionFailure } from '../errors/database-errors';

/**
 * Whether PostgreSQL was last seen reachable, so that an outage is logged once when it starts and
 * once when it ends, not once per pooled connection or per request. Fed by the pool's error
 * listener (idle connections cut by a restart) and by the unit of work (every failed or successful
 * use of a connection). The pool replaces lost connections by itself on the next checkout.
 */
export class DatabaseConnectivity {
  private readonly logger = new Logger('Database');
  private lostAt: number | undefined;

  get reachable(): boolean {
    return this.lostAt === undefined;
  }

  /** A pooled connection or a request failed; only connection failures mark an outage. */
  failed(error: unknown): void {
    if (this.lostAt !== undefined || !isConnectionFailure(error)) return;
    this.lostAt = Date.now();
    this.logger.error(
      { reason: error instanceof Error ? error.message : String(error) },
      'PostgreSQL connection lost: requests that need the database answer 503 until it is back',
    );
  }

  /** A statement succeeded: ends an outage (cheap when there is none). */
  succeeded(): void {
    if (this.lostAt === undefined) return;
    const outageMs = Date.now() - this.lostAt;
    this.lostAt = undefined;
    this.logger.warn({ outageMs }, 'PostgreSQL is reachable again');
  }
}
