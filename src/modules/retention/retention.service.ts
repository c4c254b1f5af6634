import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { CONFIG, Config } from '../../config';
import { IdempotencyService } from '../idempotency';
import { EmailVerificationService, LoginChallengeService } from '../identity';
import { EmailChangeService, LoginSessionService, PasswordResetService } from '../identity';

export interface PurgeReport {
  /** False when another instance held the purge lock: nothing was done here. */
  ran: boolean;
  idempotencyKeys: number;
  loginSessions: number;
  emailVerificationTokens: number;
  passwordResetTokens: number;
  emailChangeTokens: number;
  loginChallenges: number;
}

/** Rows deleted per statement: each batch is one short transaction, so no lock is held for long. */
export const PURGE_BATCH_SIZE = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The session-level advisory lock that makes one instance purge at a time. */
const LOCK_KEY = "hashtext('arcade:retention')";

/**
 * Retention (issue 14): once a day, deletes what is no longer needed: idempotency keys older than
 * IDEMPOTENCY_RETENTION_DAYS (a replay inside that window still works, CONTRACT §7: at least 7
 * days), login sessions expired or revoked, e-mail verification, password-reset and e-mail-change tokens used or expired, two-factor sign-in challenges used, ended or expired. Several
 * instances run the same schedule; a PostgreSQL advisory lock lets one of them purge and the
 * others skip. `purge(now)` takes the clock as a parameter (the tests pass one from the future).
 */
@Injectable()
export class RetentionService {
  private readonly logger = new Logger('Retention');

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyService,
    private readonly loginSessions: LoginSessionService,
    private readonly emailVerification: EmailVerificationService,
    private readonly passwordResets: PasswordResetService,
    private readonly emailChanges: EmailChangeService,
    private readonly loginChallenges: LoginChallengeService,
  ) {}

  @Cron(CronExpression.EVERY_DAY_AT_3AM, { name: 'retention-purge', timeZone: 'UTC' })
  async daily(): Promise<void> {
    try {
      const report = await this.purge(new Date());
      if (report.ran) this.logger.log({ ...report }, 'Retention purge done');
    } catch (error) {
      // Tomorrow's run catches up; a failed purge changes nothing a request depends on.
      this.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'Retention purge failed');
    }
  }

  async purge(now: Date, options: { batchSize?: number } = {}): Promise<PurgeReport> {
    const batchSize = options.batchSize ?? PURGE_BATCH_SIZE;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS locked`)) as { locked: boolean }[];
      if (!locked) return { ran: false, idempotencyKeys: 0, loginSessions: 0, emailVerificationTokens: 0, passwordResetTokens: 0, emailChangeTokens: 0, loginChallenges: 0 };
      try {
        const keysBefore = new Date(now.getTime() - this.config.idempotencyRetentionDays * DAY_MS);
        return {
          ran: true,
          idempotencyKeys: await drain((limit) => this.idempotency.purgeBatch(keysBefore, limit), batchSize),
          loginSessions: await drain((limit) => this.loginSessions.purgeBatch(now, limit), batchSize),
          emailVerificationTokens: await drain((limit) => this.emailVerification.purgeBatch(now, limit), batchSize),
          passwordResetTokens: await drain((limit) => this.passwordResets.purgeBatch(now, limit), batchSize),
          loginChallenges: await drain((limit) => this.loginChallenges.purgeBatch(now, limit), batchSize),
          emailChangeTokens: await drain((limit) => this.emailChanges.purgeBatch(now, limit), batchSize),
        };
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
      }
    } finally {
      await runner.release();
    }
  }
}

/** Runs `batch` until it deletes fewer than `size` rows, with a breath between batches for the requests. */
async function drain(batch: (limit: number) => Promise<number>, size: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await batch(size);
    total += deleted;
    if (deleted < size) return total;
    await sleep(10);
  }
}
