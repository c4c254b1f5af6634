import { Injectable } from '@nestjs/common';
import { cursorTimestamp } from '../../http/keyset-cursor';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { RUNNER_FENCE } from './job-runners.repository';
import type { WebhookEventType } from './webhook.rules';

export interface EndpointRow {
  id: string;
  developerId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  createdAt: Date;
}

export interface DeliveryRow {
  deliveryId: string;
  eventId: string;
  type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  /** The cursor's key: created_at with microseconds. */
  createdKey: string;
}

/** What an attempt needs: the delivery, its event and its endpoint (with the secrets that sign). */
export interface AttemptRow {
  deliveryId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date | null;
  eventId: string;
  type: string;
  occurredAt: Date;
  data: Record<string, unknown>;
  endpointId: string;
  developerId: string;
  url: string;
  enabled: boolean;
  deleted: boolean;
  secret: string;
  /** The old secret while it still signs (24 hours after a rotation). */
  previousSecret: string | null;
  /** The database's clock. */
  now: Date;
}

const ENDPOINT_COLUMNS = `id, developer_id AS "developerId", url, events, description, enabled, created_at AS "createdAt"`;

/**
 * Webhook endpoints, events and deliveries (this module's tables). The developer's e-mail for the
 * "endpoint disabled" mail is a cross-context read of developers and accounts (docs/architecture.md).
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Inserts an endpoint unless the developer already has `limit` (deleted ones do not count). The
   * developer's row is locked first, so two creations at once count one after the other.
   */
  async insertEndpoint(e: { developerId: string; url: string; events: string[]; description: string | null; secret: string }, limit: number): Promise<EndpointRow | 'limit'> {
    this.uow.requireTransaction();
    await this.uow.query('SELECT 1 FROM developers WHERE id = $1 FOR NO KEY UPDATE', [e.developerId]);
    const count = await this.uow.one<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE developer_id = $1 AND deleted_at IS NULL', [e.developerId]);
    if ((count?.n ?? 0) >= limit) return 'limit';
    const row = await this.uow.one<EndpointRow>(
      `INSERT INTO webhook_endpoints (developer_id, url, events, description, secret) VALUES ($1, $2, $3, $4, $5) RETURNING ${ENDPOINT_COLUMNS}`,
      [e.developerId, e.url, e.events, e.description, e.secret],
    );
    return row!;
  }

  listEndpoints(developerId: string): Promise<EndpointRow[]> {
    return this.uow.query<EndpointRow & Record<string, unknown>>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE developer_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [developerId],
    );
  }

  async endpoint(developerId: string, endpointId: string, options: { lock?: boolean } = {}): Promise<EndpointRow | undefined> {
    if (!isUuid(endpointId)) return undefined;
    return this.uow.one<EndpointRow & Record<string, unknown>>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND developer_id = $2 AND deleted_at IS NULL${options.lock ? ' FOR NO KEY UPDATE' : ''}`,
      [endpointId, developerId],
    );
  }

  async updateEndpoint(endpointId: string, change: { url?: string; events?: string[]; description?: string | null; enabled?: boolean }): Promise<EndpointRow> {
    const row = await this.uow.one<EndpointRow & Record<string, unknown>>(
      `UPDATE webhook_endpoints SET
          url = CASE WHEN $2 THEN $3 ELSE url END,
          events = CASE WHEN $4 THEN $5::text[] ELSE events END,
          description = CASE WHEN $6 THEN $7 ELSE description END,
          enabled = CASE WHEN $8 THEN $9 ELSE enabled END
        WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [
        endpointId,
        change.url !== undefined, change.url ?? null,
        change.events !== undefined, change.events ?? null,
        change.description !== undefined, change.description ?? null,
        change.enabled !== undefined, change.enabled ?? null,
      ],
    );
    return row!;
  }

  /** Marks the endpoint deleted: nothing more is sent to it, and it no longer counts towards the limit. */
  async deleteEndpoint(endpointId: string): Promise<void> {
    await this.uow.query('UPDATE webhook_endpoints SET deleted_at = now(), enabled = false WHERE id = $1 AND deleted_at IS NULL', [endpointId]);
  }

  /** The new secret signs from now on; the current one keeps signing for `overlapSeconds`. */
  async rotateSecret(endpointId: string, secret: string, overlapSeconds: number): Promise<void> {
    await this.uow.query(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $3), secret = $2 WHERE id = $1`,
      [endpointId, secret, overlapSeconds],
    );
  }

  /** The endpoint's pending deliveries get their job back (a re-enabled endpoint resumes them), each due now. */
  async requeuePending(endpointId: string): Promise<void> {
    await this.uow.query(
      `WITH pending AS (
         UPDATE webhook_deliveries SET next_attempt_at = GREATEST(now(), coalesce(next_attempt_at, now()))
          WHERE endpoint_id = $1 AND status = 'pending' RETURNING id, next_attempt_at
       )
       SELECT graphile_worker.add_job('webhook_delivery', json_build_object('deliveryId', id), run_at => next_attempt_at,
                job_key => 'webhook_delivery:' || id, max_attempts => 25)
         FROM pending`,
      [endpointId],
    );
  }

  /** A ping: an event naming its endpoint, fanned out to that endpoint alone whatever its events and state. */
  async insertPing(developerId: string, endpointId: string): Promise<string> {
    const row = await this.uow.one<{ id: string }>(
      `INSERT INTO webhook_events (developer_id, type, occurred_at, data, endpoint_id)
       VALUES ($1, 'ping', now(), jsonb_build_object('webhookId', $2::text), $2::uuid) RETURNING id`,
      [developerId, endpointId],
    );
    return row!.id;
  }

  /** A page of the endpoint's deliveries, newest first, after the cursor's (created_at, id). */
  deliveries(endpointId: string, after: { createdKey: string; id: string } | null, limit: number): Promise<DeliveryRow[]> {
    return this.uow.query<DeliveryRow & Record<string, unknown>>(
      `SELECT d.id AS "deliveryId", d.event_id AS "eventId", ev.type, d.status, d.attempts, d.last_attempt_at AS "lastAttemptAt",
              d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.next_attempt_at AS "nextAttemptAt",
              d.created_at AS "createdAt", ${cursorTimestamp('d.created_at')} AS "createdKey"
         FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
        WHERE d.endpoint_id = $1 AND ($2::timestamptz IS NULL OR (d.created_at, d.id) < ($2::timestamptz, $3::uuid))
        ORDER BY d.created_at DESC, d.id DESC LIMIT $4`,
      [endpointId, after?.createdKey ?? null, after?.id ?? null, limit],
    );
  }

  async delivery(endpointId: string, deliveryId: string): Promise<{ id: string } | undefined> {
    if (!isUuid(deliveryId)) return undefined;
    return this.uow.one<{ id: string }>('SELECT id FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2', [deliveryId, endpointId]);
  }

  /** Queues one attempt now, whatever the delivery's status (a `retry` job: it runs even when succeeded or failed). */
  async queueRetry(deliveryId: string): Promise<void> {
    await this.uow.query(
      `SELECT graphile_worker.add_job('webhook_delivery', json_build_object('deliveryId', $1::text, 'manual', true),
                job_key => 'webhook_delivery:' || $1, max_attempts => 25)`,
      [deliveryId],
    );
  }

  /**
   * Claims a due attempt in one statement: the delivery with its event and endpoint (its row locked
   * while the statement runs, so two jobs of one delivery claim one after the other), when it is
   * due: a pending delivery of a live endpoint that is enabled, or a ping; `manual`: whatever its
   * status. Undefined when there is nothing to attempt. It writes nothing: until the attempt is
   * recorded, the job stays locked by this instance's pool, and if this instance dies a survivor
   * unlocks it (job-runners.repository.ts), so the attempt is made again.
   */
  async claim(deliveryId: string, manual: boolean): Promise<AttemptRow | undefined> {
    if (!isUuid(deliveryId)) return undefined;
    return this.uow.one<AttemptRow & Record<string, unknown>>(
      `SELECT d.id AS "deliveryId", d.status, d.attempts, d.created_at AS "createdAt", d.next_attempt_at AS "nextAttemptAt",
              ev.id AS "eventId", ev.type, ev.occurred_at AS "occurredAt", ev.data,
              e.id AS "endpointId", e.developer_id AS "developerId", e.url, e.enabled, e.deleted_at IS NOT NULL AS deleted, e.secret,
              CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS "previousSecret", now() AS now
         FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = $1 AND e.deleted_at IS NULL AND ($2::boolean OR (d.status = 'pending' AND (e.enabled OR ev.type = 'ping')))
          FOR NO KEY UPDATE OF d`,
      [deliveryId, manual],
    );
  }

  /**
   * Records an attempt in one statement: succeeded, or failed with the next attempt's job (null:
   * gave up, `failed`); a finished delivery's job is removed. A failed retry of a delivery that had
   * finished keeps its status (only a success changes it). Answers the delivery's status after, or
   * `reaped` (nothing written) when this instance's runner row is gone (RUNNER_FENCE).
   */
  async recordAttempt(a: { runnerId: string; deliveryId: string; endpointId: string; ok: boolean; statusCode: number | null; error: string | null; nextAttemptAt: Date | null; finishedBefore: boolean }): Promise<'succeeded' | 'pending' | 'failed' | 'reaped'> {
    const row = await this.uow.one<{ status: 'succeeded' | 'pending' | 'failed' | null }>(
      `WITH ${RUNNER_FENCE('$8')}, updated AS (
         UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = now(), last_status_code = $2, last_error = $3,
                status = CASE WHEN $4 THEN 'succeeded' WHEN $6 THEN status WHEN $5::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
                next_attempt_at = CASE WHEN $4 OR $6 THEN NULL ELSE $5::timestamptz END
          WHERE id = $1 AND EXISTS (SELECT 1 FROM runner) RETURNING status
       ), success AS (
         UPDATE webhook_endpoints SET last_success_at = now() WHERE id = $7 AND $4 AND EXISTS (SELECT 1 FROM runner) RETURNING id
       ), next_job AS (
         SELECT graphile_worker.add_job('webhook_delivery', json_build_object('deliveryId', $1::text), run_at => $5::timestamptz,
                  job_key => 'webhook_delivery:' || $1, max_attempts => 25) AS job
           FROM updated WHERE status = 'pending' AND $5::timestamptz IS NOT NULL
       ), removed AS (
         SELECT graphile_worker.remove_job('webhook_delivery:' || $1) AS job FROM updated WHERE status <> 'pending'
       )
       SELECT (SELECT status FROM updated) AS status,
              (SELECT count(*) FROM next_job) + (SELECT count(*) FROM removed) + (SELECT count(*) FROM success) AS touched`,
      [a.deliveryId, a.statusCode, a.error, a.ok, a.nextAttemptAt, a.finishedBefore, a.endpointId, a.runnerId],
    );
    return row!.status ?? 'reaped';
  }

  /** Puts the job back for a little later without an attempt (the endpoint is busy in this instance); false: this runner was reaped (RUNNER_FENCE). */
  async postpone(runnerId: string, deliveryId: string, manual: boolean, seconds: number): Promise<boolean> {
    const row = await this.uow.one<{ job: unknown }>(
      `WITH ${RUNNER_FENCE('$4')}
       SELECT graphile_worker.add_job('webhook_delivery', json_build_object('deliveryId', $1::text, 'manual', $3::boolean),
                run_at => now() + make_interval(secs => $2), job_key => 'webhook_delivery:' || $1, max_attempts => 25) AS job
         FROM runner`,
      [deliveryId, seconds, manual, runnerId],
    );
    return row !== undefined;
  }

  /**
   * Disables the endpoint when none of its deliveries succeeded in the last 3 days (`giveUpSeconds`)
   * answers the developer's e-mail when this call disabled it.
   */
  async disableIfAllFailed(endpointId: string, giveUpSeconds: number): Promise<{ email: string | null; url: string } | undefined> {
    return this.uow.one<{ email: string | null; url: string }>(
      `WITH disabled AS (
         UPDATE webhook_endpoints SET enabled = false
          WHERE id = $1 AND enabled AND deleted_at IS NULL
            AND (last_success_at IS NULL OR last_success_at <= now() - make_interval(secs => $2))
         RETURNING developer_id, url
       )
       SELECT a.email, disabled.url FROM disabled JOIN developers d ON d.id = disabled.developer_id JOIN accounts a ON a.id = d.account_id`,
      [endpointId, giveUpSeconds],
    );
  }
}
