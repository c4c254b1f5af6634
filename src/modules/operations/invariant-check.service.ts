import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONFIG, Config } from '../../config';
import { Metrics } from '../../observability/metrics';
import { failedCheckNames, runBooksChecks } from '../books';

/** The advisory lock key of the periodic check (the migrations' is 727274). */
export const INVARIANT_CHECK_LOCK = 727_232;

export type InvariantCheckRun = { ran: false } | { ran: true; ok: boolean; failed: string[] };

/**
 * The books checked by themselves (CONTRACT §23): every INVARIANT_CHECK_INTERVAL_SECONDS the §22
 * checks (`runBooksChecks`, the reconciliation's and `npm run check:invariants`'s) run on one
 * instance at a time: each instance tries PostgreSQL's advisory lock on one connection, the one
 * that gets it checks (one read-only snapshot) and lets it go; the others skip this round. The
 * result sets `arcade_invariant_check_ok` (1 or 0) and a failure logs an error naming each failed
 * check. A timer with unref: it never keeps the process up. 0 turns it off (the default of a test run).
 */
@Injectable()
export class InvariantCheckService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('InvariantCheck');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    const seconds = this.config.observability.invariantCheckIntervalSeconds;
    if (seconds === 0) return;
    const tick = () => {
      this.running = this.runOnce().catch((error: unknown) => this.logger.error({ err: error instanceof Error ? error : new Error(String(error)) }, 'The periodic books check could not run'));
    };
    // The first check a little after start-up (not in the migrations' and the warm-up's way), then every interval.
    this.timer = setTimeout(() => {
      tick();
      this.timer = setInterval(tick, seconds * 1000).unref();
    }, Math.min(seconds, 10) * 1000).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }

  /** One round: the checks when this instance gets the lock, else nothing. */
  async runOnce(): Promise<InvariantCheckRun> {
    const runner = this.dataSource.createQueryRunner('master');
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [INVARIANT_CHECK_LOCK])) as { locked: boolean }[];
      if (!locked) return { ran: false };
      let failed: string[];
      try {
        await runner.startTransaction('REPEATABLE READ');
        try {
          // One snapshot, read only; the checks read whole ledgers: longer than a request's statement timeout.
          await runner.query('SET TRANSACTION READ ONLY');
          await runner.query("SET LOCAL statement_timeout = '120s'");
          failed = failedCheckNames(await runBooksChecks({ query: async (sql) => ({ rows: (await runner.query(sql)) as Record<string, unknown>[] }) }));
          await runner.commitTransaction();
        } catch (error) {
          if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
          throw error;
        }
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [INVARIANT_CHECK_LOCK]);
      }
      this.metrics.invariantCheckOk.set(failed.length === 0 ? 1 : 0);
      for (const name of failed) this.logger.error({ check: name }, `Books check failed: ${name} (GET /api/admin/reconciliation shows the offending rows)`);
      return { ran: true, ok: failed.length === 0, failed };
    } finally {
      await runner.release();
    }
  }
}
