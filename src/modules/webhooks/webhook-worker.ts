import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Logger as WorkerLogger, run, Runner, Task, WorkerEvents } from 'graphile-worker';
import { Pool, PoolClient } from 'pg';
import { CONFIG, Config } from '../../config';
import { Metrics } from '../../observability/metrics';
import { MailService, webhookDisabledMail } from '../mail';
import { WebhookSender } from './webhook-sender';
import { nextAttemptAt, WEBHOOK_GIVE_UP_MS } from './webhook.rules';
import { AttemptRow, WebhooksRepository } from './webhooks.repository';
import { JobRunnersRepository } from './job-runners.repository';

interface DeliveryJob {
  deliveryId: string;
  /** "Retry" (CONTRACT §21): one attempt whatever the delivery's status. */
  manual?: boolean;
}

/** A job for an endpoint already at its in-flight limit here comes back after 1–2 s, without an attempt. */
const BUSY_DELAY_SECONDS = () => 1 + Math.random();

/**
 * The delivering side of the outbox (CONTRACT §21): graphile-worker jobs, one per due attempt,
 * taken by whichever instance gets them first (each job by one instance). A job:
 *
 * 1. claims its delivery in one statement (skipped when it is no longer due);
 * 2. makes the attempt outside any transaction (WebhookSender: 10 s, no redirects, SSRF guard);
 * 3. records it in one statement: succeeded (its job removed), or failed with the next attempt's
 *    job (WEBHOOK_RETRY_SCHEDULE; none after 3 days: `failed`, and the endpoint disabled and its
 *    developer mailed if nothing of it succeeded for 3 days).
 *
 * With graphile-worker's own fetch and completion, four statements per attempt.
 *
 * At least once through kill -9: from graphile-worker's fetch to its completion the job stays
 * locked by this instance's pool id, which this instance keeps in its `job_runners` row (written
 * before the pool fetches anything, refreshed every few seconds). When the row goes unrefreshed
 * for JOB_RUNNER_DEAD_AFTER_SECONDS, a survivor deletes it and force-unlocks the jobs in one
 * statement (job-runners.repository.ts), and they run again there. The record and a postponement
 * only write while the row is there (RUNNER_FENCE): an instance reaped while still alive (frozen)
 * throws instead, so graphile-worker's completion never deletes a job that another instance has
 * since taken over.
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
  /** This instance's row in job_runners, and the graphile-worker pool ids its jobs are locked with. */
  private readonly runnerId = randomUUID();
  private readonly workerIds: string[] = [];
  private registration: Promise<void> | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private everRegistered = false;
  private stopping = false;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly deliveries: WebhooksRepository,
    private readonly runners: JobRunnersRepository,
    private readonly sender: WebhookSender,
    private readonly mail: MailService,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { concurrency } = this.config.webhooks;
    this.pool = new Pool({ connectionString: this.config.databaseUrl, max: 4, application_name: 'arcade-coin-service:webhooks' });
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'Job queue connection lost; it is replaced'));
    this.pool.on('connect', (client) => client.on('error', (error) => this.logger.warn({ err: error }, 'Job queue connection failed')));
    this.gateConnections(this.pool);
    const events: WorkerEvents = new EventEmitter();
    // Emitted before the pool's workers start; the gate holds their first fetch until the row names the pool.
    events.on('pool:create', ({ workerPool }) => {
      this.workerIds.push(workerPool.id);
      this.registration = undefined;
    });
    this.runner = await run({
      pgPool: this.pool,
      concurrency,
      noHandleSignals: true,
      events,
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
    this.stopping = true;
    clearTimeout(this.heartbeatTimer);
    // A heartbeat under way would write the row again after the leave below.
    await this.beating?.catch(() => undefined);
    const stopped = await this.runner?.stop().then(
      () => true,
      (error: unknown) => this.logger.warn({ err: error }, 'The job queue did not stop cleanly'),
    );
    // Stopped: its pool runs nothing more, so its row goes and anything it still held is unlocked now.
    // Not stopped: the row stays, goes stale, and a survivor reaps it.
    if (stopped && this.everRegistered) await this.runners.leave(this.runnerId).catch((error: unknown) => this.logger.warn({ err: error }, 'The job runner row was not removed; a survivor reaps it'));
    this.runner = undefined;
    await this.pool?.end().catch(() => undefined);
    this.pool = undefined;
  }

  /**
   * graphile-worker locks jobs through connections of this pool; each of them (the LISTEN one
   * aside, it locks nothing) waits until this instance's job_runners row names every pool id
   * seen so far, so a kill -9 can never leave a job locked by a pool nobody knows of.
   */
  private gateConnections(pool: Pool): void {
    const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => Promise<PoolClient> | undefined;
    const gated = (callback?: (...args: unknown[]) => void) => (callback ? connect(callback) : this.registered().then(() => connect() as Promise<PoolClient>));
    pool.connect = gated as Pool['connect'];
  }

  /** The first heartbeat for the current pool ids (retried by the next connection if it failed); then every few seconds. */
  private registered(): Promise<void> {
    // Stopping: graphile-worker fetches nothing more, and a heartbeat now would write the row again after the leave.
    if (this.workerIds.length === 0 || this.stopping) return Promise.resolve();
    this.registration ??= this.beat().catch((error: unknown) => {
      this.registration = undefined;
      throw error;
    });
    return this.registration;
  }

  /** One heartbeat (job-runners.repository.ts), then the next one scheduled: a quarter of the dead-after time, at most 5 s. */
  private beat(): Promise<void> {
    this.beating = this.beatOnce();
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    clearTimeout(this.heartbeatTimer);
    try {
      const { inserted, reaped } = await this.runners.heartbeat(this.runnerId, this.workerIds, this.config.webhooks.runnerDeadAfterSeconds);
      if (inserted && this.everRegistered) this.logger.error({ runnerId: this.runnerId }, 'This instance was taken for dead (not seen for JOB_RUNNER_DEAD_AFTER_SECONDS) and its jobs unlocked; registered again');
      if (reaped > 0) this.logger.warn({ reaped }, 'Job runners not seen for JOB_RUNNER_DEAD_AFTER_SECONDS were removed and their jobs unlocked');
      this.everRegistered = true;
    } finally {
      // One timer at a time, whichever heartbeat (the timer's or a registration's) ends last.
      clearTimeout(this.heartbeatTimer);
      if (!this.stopping) {
        const everyMs = Math.min(5000, (this.config.webhooks.runnerDeadAfterSeconds * 1000) / 4);
        this.heartbeatTimer = setTimeout(() => void this.beat().catch((error: unknown) => this.logger.warn({ err: error }, 'Job runner heartbeat failed')), everyMs).unref();
      }
    }
  }

  /** One job: claim, attempt, record (see the class comment). */
  async attempt(job: DeliveryJob): Promise<void> {
    const manual = job.manual === true;
    const claimed = await this.deliveries.claim(job.deliveryId, manual);
    if (!claimed) return;
    if ((this.inFlight.get(claimed.endpointId) ?? 0) >= this.config.webhooks.endpointConcurrency) {
      // The endpoint is busy here: back in a second or two, no attempt.
      if (!(await this.deliveries.postpone(this.runnerId, claimed.deliveryId, manual, BUSY_DELAY_SECONDS()))) throw reapedError();
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
      runnerId: this.runnerId,
      deliveryId: claimed.deliveryId,
      endpointId: claimed.endpointId,
      ok: outcome.ok,
      statusCode: outcome.statusCode,
      error: outcome.error,
      nextAttemptAt: next,
      finishedBefore,
    });
    // Reaped: the job may run elsewhere already; failing it (graphile-worker's failure only touches a job this pool still locks) leaves it alone.
    if (status === 'reaped') throw reapedError();
    this.metrics.webhookDeliveries.inc({ outcome: outcome.ok ? 'succeeded' : status === 'pending' ? 'retrying' : 'failed' });
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

function reapedError(): Error {
  return new Error('This instance was taken for dead and its jobs unlocked: the attempt is not recorded here (another instance makes it again)');
}
