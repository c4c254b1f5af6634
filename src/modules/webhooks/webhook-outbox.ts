import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import type { WebhookEventType } from './webhook.rules';

/**
 * The webhooks' transactional outbox (CONTRACT §21): an event is written in the transaction of the
 * change it reports, as one INSERT into webhook_events (whose trigger adds a delivery and a
 * graphile-worker job per enabled, subscribed endpoint, in the same statement). It is written only
 * when the developer has such an endpoint: the guard is an index probe of webhook_endpoints in the
 * same statement, so a developer without webhooks costs the hot path no write and no round trip.
 *
 * Two ways in, as the ledger's append (docs/architecture.md, "Riding writes"):
 * - `rider(...)`: one more CTE of the change's own statement (insert-coin's money statement, the
 *   score's insert), written only when the host's write happened (`{when}`); no extra round trip.
 * - `record(...)`: a statement of its own in the caller's transaction (a void, a removal, an end,
 *   an unlock: paths that already send several statements).
 *
 * `data` is the event's `data` object; `enrich`, when given, is a constant SQL expression giving a
 * jsonb merged into it, evaluated only when the event is written (its values follow the event's
 * three: write `{data}` for the event's data and `{n}` for the n-th of `enrichValues`). Dates in
 * the data are `webhook_time(ts)` (ISO with milliseconds and Z, as the API writes them).
 */
export interface OutboxEvent {
  developerId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** The time of the change; default the transaction's `now()`. Either SQL (constant) or a Date. */
  occurredAt?: Date;
  enrich?: { sql: string; values: readonly unknown[] };
}

/** The rider's and the statement's text: $1 developer, $2 type, $3 data, $4 occurred at (null: now()), then enrich's values. */
const textOf = (when: string, enrichSql: string | undefined): string => {
  const data = enrichSql ? `($3::jsonb || ${enrichSql.replaceAll('{data}', '$3::jsonb').replace(/\{(\d+)\}/g, (_, n: string) => `$${5 + Number(n)}`)})` : '$3::jsonb';
  return `INSERT INTO webhook_events (developer_id, type, occurred_at, data)
  SELECT $1::uuid, $2::text, COALESCE($4::timestamptz, now()), ${data}
   WHERE ${when} EXISTS (SELECT 1 FROM webhook_endpoints e
                   WHERE e.developer_id = $1::uuid AND e.enabled AND e.deleted_at IS NULL AND $2::text = ANY (e.events))`;
};

@Injectable()
export class WebhookOutbox {
  private readonly riderTexts = new Map<string, string>();
  private readonly recordTexts = new Map<string, string>();

  constructor(private readonly uow: UnitOfWork) {}

  /** The event as one more CTE of the host statement, written only when the host's write happened. */
  rider(event: OutboxEvent): RidingWrite {
    const key = event.enrich?.sql ?? '';
    let sql = this.riderTexts.get(key);
    if (sql === undefined) this.riderTexts.set(key, (sql = textOf('{when} AND', event.enrich?.sql)));
    return { sql, values: valuesOf(event) };
  }

  /** The event as a statement of its own, in the caller's transaction (required). */
  async record(event: OutboxEvent): Promise<void> {
    this.uow.requireTransaction();
    const key = event.enrich?.sql ?? '';
    let sql = this.recordTexts.get(key);
    if (sql === undefined) this.recordTexts.set(key, (sql = textOf('', event.enrich?.sql)));
    await this.uow.query(sql, valuesOf(event));
  }
}

function valuesOf(event: OutboxEvent): unknown[] {
  return [event.developerId, event.type, JSON.stringify(event.data), event.occurredAt ?? null, ...(event.enrich?.values ?? [])];
}
