import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger as WorkerLogger, run, Runner, Task } from 'graphile-worker';
import { Pool } from 'pg';
import { CONFIG, Config } from '../../config';
import { MailService, webhookDisabledMail } from '../mail';
import { WebhookSender } from './webhook-sender';
import { nextAttemptAt, WEBHOOK_GIVE_UP_MS } from './webhook.rules';
import { AttemptRow, WebhooksRepository } from './webhooks.repository';

interface DeliveryJob {
  deliveryId: string;
  /** "Retry" (CONTRACT §21): one attempt whatever the delivery's status. */
  manual?: boolean;
}

/**
 * Seconds after an attempt starts at which its job comes back if the attempt never records its
 * outcome (the instance died mid-attempt: kill -9, a lost machine). Longer than the attempt's 10 s
 * budget; graphile-worker alone would wait for its 4-hour lock timeout.
 */
const GUARD_SECONDS = 60;
/** A job for an endpoint already at its in-flight limit here comes back after 1–2 s, without an attempt. */
const BUSY_DELAY_SECONDS = () => 1 + Math.random();

/**
 * The delivering side of the outbox (CONTRACT §21): graphile-worker jobs, one per due attempt,
 * taken by whichever instance gets them first (each job by one instance). A job:
 *
 * 1. claims its delivery in one statement (the delivery's row locked while it runs, so two jobs of
 *    one delivery claim one after the other) that also re-adds its own job `GUARD_SECONDS` later
 *    (the same job key: graphile-worker keeps one pending job per delivery). If this instance dies
 *    during the attempt, that job brings the delivery back: at least once, across kill -9.
 * 2. makes the attempt outside any transaction (WebhookSender: 10 s, no redirects, SSRF guard);
 * 3. records it in one statement: succeeded (its job removed), or failed with the next attempt's
 *    job (WEBHOOK_RETRY_SCHEDULE; none after 3 days: `failed`, and the endpoint disabled and its
 *    developer mailed if nothing of it succeeded for 3 days).
 *
 * With graphile-worker's own fetch and completion, four statements per attempt.
 *
 * A dead endpoint delays nobody: each instance makes at most WEBHOOK_ENDPOINT_CONCURRENCY attempts
 * to one endpoint at a time (a job over it comes back a second later), out of WEBHOOK_CONCURRENCY.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private runner: Runner | undefined;
  private pool: Pool | undefined;
  private readonly inFlight = new Map<string, number>();

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly deliveries: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly mail: MailService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { concurrency } = this.config.webhooks;
    this.pool = new Pool({ connectionString: this.config.databaseUrl, max: 4, application_name: 'arcade-coin-service:webhooks' });
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'Job queue connection lost; it is replaced'));
    this.pool.on('connect', (client) => client.on('error', (error) => this.logger.warn({ err: error }, 'Job queue connection failed')));
    this.runner = await run({
      pgPool: this.pool,
      concurrency,
      noHandleSignals: true,
      // The schema is installed by the owner at start-up (src/database/job-queue.ts).
      logger: new WorkerLogger((scope) => (level, message) => {
        // LogLevel is a const enum of strings ("error", "warning", ...): compared as the strings it is.
        const name: string = level;
        if (name === 'error') this.logger.error({ scope }, message);
        else if (name === 'warning') this.logger.warn({ scope }, message);
      }),
      // Completion written at once, so a stop() during a task leaves no locked row behind (docs/webhooks.md).
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, pollInterval: 2000 } },
      taskList: { webhook_delivery: ((payload) => this.attempt(payload as DeliveryJob)) as Task },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner?.stop().catch((error: unknown) => this.logger.warn({ err: error }, 'The job queue did not stop cleanly'));
    this.runner = undefined;
    await this.pool?.end().catch(() => undefined);
    this.pool = undefined;
  }

  /** One job: claim, attempt, record (see the class comment). */
  async attempt(job: DeliveryJob): Promise<void> {
    const manual = job.manual === true;
    const claimed = await this.deliveries.claim(job.deliveryId, manual, GUARD_SECONDS);
    if (!claimed) return;
    if ((this.inFlight.get(claimed.endpointId) ?? 0) >= this.config.webhooks.endpointConcurrency) {
      // The endpoint is busy here: back in a second or two, no attempt (the guard job is replaced).
      await this.deliveries.postpone(claimed.deliveryId, manual, BUSY_DELAY_SECONDS());
      return;
    }

    this.inFlight.set(claimed.endpointId, (this.inFlight.get(claimed.endpointId) ?? 0) + 1);
    let outcome;
    try {
      outcome = await this.sender.send({
        url: claimed.url,
        messageId: claimed.eventId,
        body: JSON.stringify({ type: claimed.type, timestamp: claimed.occurredAt.toISOString(), data: claimed.data }),
        secrets: claimed.previousSecret ? [claimed.previousSecret, claimed.secret] : [claimed.secret],
      });
    } finally {
      const left = (this.inFlight.get(claimed.endpointId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(claimed.endpointId);
      else this.inFlight.set(claimed.endpointId, left);
    }

    const finishedBefore = claimed.status !== 'pending';
    const next = outcome.ok || finishedBefore ? null : nextAttemptAt(this.config.webhooks.retrySchedule, claimed.attempts + 1, claimed.createdAt, new Date());
    const status = await this.deliveries.recordAttempt({
      deliveryId: claimed.deliveryId,
      endpointId: claimed.endpointId,
      ok: outcome.ok,
      statusCode: outcome.statusCode,
      error: outcome.error,
      nextAttemptAt: next,
      finishedBefore,
    });
    if (status === 'failed' && !finishedBefore) await this.disableIfAllFailed(claimed.endpointId);
  }

  /** A delivery gave up: the endpoint is disabled, and its developer mailed, when nothing of it succeeded for 3 days. */
  private async disableIfAllFailed(endpointId: string): Promise<void> {
    const disabled = await this.deliveries.disableIfAllFailed(endpointId, WEBHOOK_GIVE_UP_MS / 1000);
    if (!disabled?.email) return;
    const link = `${this.config.publicOrigin}/developer/webhooks/${endpointId}`;
    await this.mail.send({ to: disabled.email, ...webhookDisabledMail(disabled.url, link) }).catch((error: unknown) => this.logger.error({ err: error }, 'The "endpoint disabled" mail was not sent'));
  }

  /** Whether this job should attempt: a pending delivery of a live endpoint, enabled (a ping: whatever its state); a retry: always. */
  private due(row: AttemptRow, manual: boolean): boolean {
    if (row.deleted) return false;
    if (manual) return true;
    if (row.status !== 'pending') return false;
    return row.enabled || row.type === 'ping';
  }
}

