import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (CONTRACT §23), one registry per app. Names follow
 * OpenTelemetry's semantic conventions as Prometheus spells them (`http.server.request.duration`
 * → `http_server_request_duration_seconds`); the business series are `arcade_*`. Every series is
 * declared here, with its labels and their values bounded: a label never carries an id or a raw
 * path (docs/operations.md, "Metrics").
 *
 * With METRICS_TOKEN unset the app gets `Metrics.off()`: no registry, no default collectors, no
 * duration observed per request, and the business counters are no-ops (insert-coin registers no
 * after-commit call for them).
 */

/** A counter without labels. */
export interface CountOf {
  inc(value?: number): void;
}

/** A counter by one label whose values are listed in its type. */
export interface CountBy<L extends string, V extends string> {
  inc(labels: Record<L, V>, value?: number): void;
}

export interface GaugeOf {
  set(value: number): void;
}

const NOOP = { inc(): void {}, set(): void {} };

/** OpenTelemetry's default buckets for http.server.request.duration, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** http_request_method: the known methods; anything else is `_OTHER` (OpenTelemetry's rule, bounding the label). */
export const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

export type PurchaseMetricStatus = 'pending' | 'paid' | 'failed' | 'refunded' | 'disputed';
/** One attempt: `succeeded`; failed and to be retried: `retrying`; failed and given up: `failed`. */
export type WebhookDeliveryOutcome = 'succeeded' | 'retrying' | 'failed';
export type PayoutMetricStatus = 'pending' | 'paid' | 'failed';

export type HttpLabels = 'http_request_method' | 'http_route' | 'http_response_status_code';

/** A pool whose connections are reported (`pool_name`: `primary`, `replica1`...). */
export interface WatchedPool {
  name: string;
  pool: Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  /** The most connections it may open. */
  max: number;
}

export class Metrics {
  /** Undefined when metrics are off. */
  readonly registry: Registry | undefined;
  /** http_server_request_duration_seconds; undefined when metrics are off (nothing observed then). */
  readonly httpDuration: Histogram<HttpLabels> | undefined;
  readonly insertions: CountOf;
  readonly coinsSpent: CountOf;
  readonly purchases: CountBy<'status', PurchaseMetricStatus>;
  readonly webhookDeliveries: CountBy<'outcome', WebhookDeliveryOutcome>;
  readonly payouts: CountBy<'status', PayoutMetricStatus>;
  readonly invariantCheckOk: GaugeOf;

  private pools: readonly WatchedPool[] = [];
  private oldestPendingWebhook: (() => Promise<number>) | undefined;

  static off(): Metrics {
    return new Metrics(false);
  }

  static on(): Metrics {
    return new Metrics(true);
  }

  private constructor(enabled: boolean) {
    if (!enabled) {
      this.registry = undefined;
      this.httpDuration = undefined;
      this.insertions = this.coinsSpent = this.purchases = this.webhookDeliveries = this.payouts = NOOP;
      this.invariantCheckOk = NOOP;
      return;
    }
    const registers = [(this.registry = new Registry())];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests, by method, route template (`unmatched`: no route) and status.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    // Read from pg's public pool counters when Prometheus scrapes: nothing on the query path.
    const pools = (): readonly WatchedPool[] => this.pools;
    const oldestPendingWebhook = () => this.oldestPendingWebhook;
    new Gauge({
      name: 'db_client_connections_usage',
      help: 'Connections of the database pool, by state (idle, used).',
      labelNames: ['state', 'pool_name'],
      registers,
      collect() {
        this.reset();
        for (const { name, pool } of pools()) {
          this.set({ state: 'idle', pool_name: name }, pool.idleCount);
          this.set({ state: 'used', pool_name: name }, pool.totalCount - pool.idleCount);
        }
      },
    });
    new Gauge({
      name: 'db_client_connections_pending_requests',
      help: 'Requests waiting for a connection of the database pool.',
      labelNames: ['pool_name'],
      registers,
      collect() {
        this.reset();
        for (const { name, pool } of pools()) this.set({ pool_name: name }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'db_client_connections_max',
      help: 'The most connections the database pool may open.',
      labelNames: ['pool_name'],
      registers,
      collect() {
        this.reset();
        for (const { name, max } of pools()) this.set({ pool_name: name }, max);
      },
    });
    this.insertions = new Counter({ name: 'arcade_insertions_total', help: 'Paid coin insertions committed.', registers });
    this.coinsSpent = new Counter({ name: 'arcade_coins_spent_total', help: 'Coins spent on insertions (committed).', registers });
    this.purchases = new Counter({
      name: 'arcade_purchases_total',
      help: 'Coin purchases entering each status (a purchase is counted once for every status it enters).',
      labelNames: ['status'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'arcade_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, another attempt is scheduled), failed (failed, given up).',
      labelNames: ['outcome'],
      registers,
    });
    new Gauge({
      name: 'arcade_webhook_oldest_pending_seconds',
      help: 'Seconds the longest-waiting due webhook delivery (pending, next attempt time passed, enabled endpoint) has waited since it fell due (0: none).',
      registers,
      async collect() {
        const read = oldestPendingWebhook();
        if (!read) return;
        try {
          this.set(await read());
        } catch {
          // The database does not answer: the pool gauges and the 5xx ratio say so; keep the last value.
        }
      },
    });
    this.payouts = new Counter({ name: 'arcade_payouts_total', help: 'Developer payouts entering each status.', labelNames: ['status'], registers });
    const invariant = new Gauge({
      name: 'arcade_invariant_check_ok',
      help: "1 when this instance's last periodic books check held, 0 when a check failed (NaN until this instance ran one).",
      registers,
    });
    invariant.set(Number.NaN);
    this.invariantCheckOk = invariant;
  }

  get enabled(): boolean {
    return this.registry !== undefined;
  }

  /** The pools whose connections the db_client_connections_* gauges report. */
  watchPools(pools: readonly WatchedPool[]): void {
    this.pools = pools;
  }

  /** How arcade_webhook_oldest_pending_seconds is read (a query, run when Prometheus scrapes). */
  readOldestPendingWebhook(read: () => Promise<number>): void {
    this.oldestPendingWebhook = read;
  }
}
