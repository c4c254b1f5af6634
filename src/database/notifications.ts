import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { EventMapOf } from '../registry/declarations';
import { UnitOfWork } from './unit-of-work';

/** The one PostgreSQL channel of the service; a message is `<topic> <payload>`. */
const CHANNEL = 'arcade_invalidations';
const RETRY_MS = 1000;

/**
 * What an in-process cache drops when another instance (or this one) changed its source: the
 * `everyInstance<P>()` events the modules declare (`<module>.declarations.ts`).
 */
export type InvalidationMap = EventMapOf<'every-instance'>;

export type InvalidationTopic = keyof InvalidationMap;
type Handler<K extends InvalidationTopic> = (message: InvalidationMap[K]) => void;

/**
 * Cache invalidations shared by every instance, on PostgreSQL's LISTEN/NOTIFY. `publish()` runs
 * `pg_notify` inside the use case's transaction, so every instance hears of a change when it
 * commits and none when it rolls back; this instance's handlers also run right after the commit,
 * before its next request can read a stale entry.
 *
 * Listening needs one connection of its own (a pooled one would be handed to requests between
 * statements, and take a slot of DB_POOL_SIZE for good): a `pg` client on the data source's primary
 * URL, reconnected every second after a loss. A cache may serve entries only while `listening` is
 * true: it drops everything when listening stops (a message may be lost) and again when it starts
 * (one may have been missed in between). Subscribe with `onState` for both.
 */
@Injectable()
export class DatabaseNotifications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Notifications');
  private readonly handlers = new Map<InvalidationTopic, Handler<never>[]>();
  private readonly stateHandlers: ((listening: boolean) => void)[] = [];
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private lostLogged = false;
  private state = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
  ) {}

  /** True while every committed invalidation reaches this instance. */
  get listening(): boolean {
    return this.state;
  }

  on<K extends InvalidationTopic>(topic: K, handler: Handler<K>): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(topic, list);
  }

  /** Called with false when listening stops and with true when it (re)starts. */
  onState(handler: (listening: boolean) => void): void {
    this.stateHandlers.push(handler);
  }

  /** Inside `uow.run()`: tells every instance once the transaction commits. */
  async publish<K extends InvalidationTopic>(topic: K, message: InvalidationMap[K]): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query('SELECT pg_notify($1, $2)', [CHANNEL, `${topic} ${JSON.stringify(message)}`]);
    this.uow.afterCommit(() => this.dispatch(topic, message));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.setState(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: primaryUrl(this.dataSource), application_name: 'arcade-coin-service-listen', keepAlive: true });
    const lost = (error?: unknown) => this.lost(client, error);
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) this.received(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      lost(error);
      return;
    }
    if (this.client !== client) return;
    if (this.lostLogged) this.logger.warn('Listening for cache invalidations again');
    this.lostLogged = false;
    this.setState(true);
  }

  private lost(client: Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.setState(false);
    if (this.stopped) return;
    if (!this.lostLogged) {
      this.lostLogged = true;
      this.logger.warn(
        { reason: error instanceof Error ? error.message : 'connection closed' },
        'Not listening for cache invalidations: in-process caches are off until the connection is back',
      );
    }
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), RETRY_MS);
    this.retry.unref();
  }

  private setState(listening: boolean): void {
    if (this.state === listening) return;
    this.state = listening;
    for (const handler of this.stateHandlers) handler(listening);
  }

  /** A notification from PostgreSQL (another instance's, or this one's own coming back): `<topic> <JSON>`. */
  private received(text: string): void {
    const space = text.indexOf(' ');
    const topic = text.slice(0, space) as InvalidationTopic;
    let message: InvalidationMap[InvalidationTopic];
    try {
      message = JSON.parse(text.slice(space + 1)) as InvalidationMap[InvalidationTopic];
    } catch {
      this.logger.warn({ topic }, 'An invalidation message that is not JSON was ignored');
      return;
    }
    this.dispatch(topic, message);
  }

  private dispatch(topic: InvalidationTopic, message: InvalidationMap[InvalidationTopic]): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(message as never);
      } catch (error) {
        this.logger.error({ err: error instanceof Error ? error : new Error(String(error)), topic }, 'An invalidation handler failed');
      }
    }
  }
}

/** The primary's URL of a data source made by createDataSource (a URL, with or without replicas). */
function primaryUrl(dataSource: DataSource): string {
  const options = dataSource.options;
  if (options.type !== 'postgres') throw new Error('DatabaseNotifications needs a PostgreSQL data source.');
  const url = options.replication?.master.url ?? options.url;
  if (!url) throw new Error('DatabaseNotifications needs the data source to be configured with a URL.');
  return url;
}
