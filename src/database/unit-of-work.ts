import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { PoolClient, QueryResultRow } from 'pg';
import { ConnectionLostError, isConnectionFailure, isDatabaseUnavailable, isRetryableTransactionError, pgError } from '../errors/database-errors';
import { DatabaseConnectivity } from './connectivity';

interface Transaction {
  runner: QueryRunner;
  /** pg's PoolClient under the runner (`QueryRunner.connect()` returns it): prepared statements go here. */
  client: PoolClient;
  afterCommit: (() => unknown)[];
}

/**
 * One transaction per use case. `run(work)` takes a QueryRunner from the DataSource, starts the
 * transaction on it, keeps it (and its EntityManager) in AsyncLocalStorage for the repositories,
 * and commits or rolls back; nested `run` calls join the outer transaction. A transaction that
 * loses a race (deadlock 40P01, serialization failure 40001) is run once more, whole, before the
 * error is answered 503. `afterCommit(fn)` runs `fn` after the outermost COMMIT, never after a
 * rollback.
 *
 * Repositories call `query()`/`one()` (hand-written SQL, sent as named prepared statements on the
 * runner's pg connection: parsed and planned once per connection) or use `manager` (TypeORM's
 * entity API). Inside a transaction both go to the transaction's connection, outside it to a
 * connection of the pool. `queryReplica()` is for public reads that tolerate replication lag.
 *
 * A connection that failed with a timeout or a connection error is destroyed, never pooled again:
 * after a client-side timeout the server may still be running our statement inside the open
 * transaction, and the next request would run its statements in that transaction.
 */
@Injectable()
export class UnitOfWork {
  private readonly storage = new AsyncLocalStorage<Transaction>();
  private readonly names = new Map<string, string>();
  private readonly logger = new Logger('UnitOfWork');

  constructor(
    readonly dataSource: DataSource,
    private readonly connectivity: DatabaseConnectivity,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.storage.getStore()) return work();
    let committed: { result: T; afterCommit: (() => unknown)[] };
    try {
      committed = await this.attempt(work);
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
      this.logger.warn({ sqlstate: pgError(error).code }, 'Transaction lost a race (deadlock or serialization failure); running it once more');
      committed = await this.attempt(work);
    }
    for (const callback of committed.afterCommit) this.invoke(callback);
    return committed.result;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /** The current transaction's EntityManager; outside a transaction the DataSource's. */
  get manager(): EntityManager {
    return this.storage.getStore()?.runner.manager ?? this.dataSource.manager;
  }

  /** For writes that must never half-commit (the ledger): refuses to run outside `run()`. */
  requireTransaction(): void {
    if (!this.storage.getStore()) {
      throw new Error('This write must run inside UnitOfWork.run(): it is part of a transaction.');
    }
  }

  /**
   * Runs `callback` after the outermost transaction commits (at once outside a transaction); it is
   * dropped when the transaction rolls back. A callback's error (or rejected promise) is logged:
   * the transaction has committed, so its answer stands.
   */
  afterCommit(callback: () => unknown): void {
    const tx = this.storage.getStore();
    if (tx) tx.afterCommit.push(callback);
    else this.invoke(callback);
  }

  async query<T extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const tx = this.storage.getStore();
    if (tx) return (await tx.client.query<T>({ name: this.statementName(text), text, values })).rows;
    return this.outside(text, values);
  }

  async one<T extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<T | undefined> {
    const rows = await this.query<T>(text, values);
    return rows[0];
  }

  /**
   * A read that tolerates replication lag (the public catalogue and boards): on a read replica when
   * DATABASE_READ_URLS is set, else like `query()`. Inside a transaction it stays on the
   * transaction (a use case reads what it wrote). A replica that cannot be reached is skipped for
   * the primary.
   */
  async queryReplica<T extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    if (this.storage.getStore() || !this.dataSource.driver.isReplicated) return this.query<T>(text, values);
    let runner: QueryRunner | undefined = this.dataSource.driver.createQueryRunner('slave');
    let client: PoolClient | undefined;
    try {
      client = (await runner.connect()) as PoolClient;
    } catch {
      // No connection to the replica: the primary answers instead.
      await runner.release();
      runner = undefined;
    }
    if (!runner || !client) return this.outside<T>(text, values);
    try {
      const rows = (await client.query<T>({ name: this.statementName(text), text, values })).rows;
      await runner.release();
      return rows;
    } catch (error) {
      await this.giveBack(runner, client, isDatabaseUnavailable(error));
      if (!isConnectionFailure(error)) throw error;
      return this.outside<T>(text, values);
    }
  }

  async oneReplica<T extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<T | undefined> {
    return (await this.queryReplica<T>(text, values))[0];
  }

  private async attempt<T>(work: () => Promise<T>): Promise<{ result: T; afterCommit: (() => unknown)[] }> {
    const runner = this.dataSource.createQueryRunner('master');
    const client = await this.connect(runner);
    const tx: Transaction = { runner, client, afterCommit: [] };
    try {
      await runner.startTransaction();
      const result = await this.storage.run(tx, work);
      await runner.commitTransaction();
      await runner.release();
      this.connectivity.succeeded();
      return { result, afterCommit: tx.afterCommit };
    } catch (caught) {
      // The runner lets go of a connection that reported an error between two statements; what
      // failed next (COMMIT, an entity call) then only says the runner was released.
      const error = runner.isReleased && !isDatabaseUnavailable(caught) ? new ConnectionLostError(caught) : caught;
      this.connectivity.failed(error);
      let broken = isDatabaseUnavailable(error) && !isRetryableTransactionError(error);
      if (!broken && !runner.isReleased && runner.isTransactionActive) {
        broken = await runner.rollbackTransaction().then(() => false, () => true);
      }
      await this.giveBack(runner, client, broken);
      throw error;
    }
  }

  /**
   * One statement on a pooled connection of the primary (autocommit), given back at once. The
   * driver's runner carries no EntityManager: this runs on every request (the cookie guard).
   */
  private async outside<T extends QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
    const runner = this.dataSource.driver.createQueryRunner('master');
    const client = await this.connect(runner);
    let rows: T[];
    try {
      rows = (await client.query<T>({ name: this.statementName(text), text, values })).rows;
    } catch (error) {
      this.connectivity.failed(error);
      await this.giveBack(runner, client, isDatabaseUnavailable(error));
      throw error;
    }
    await runner.release();
    this.connectivity.succeeded();
    return rows;
  }

  private async connect(runner: QueryRunner): Promise<PoolClient> {
    try {
      return (await runner.connect()) as PoolClient;
    } catch (error) {
      this.connectivity.failed(error);
      await runner.release();
      throw error;
    }
  }

  /**
   * Returns the connection to the pool, or, when `broken`, closes it first: the pool drops a client
   * that has been ended instead of handing it out again. A connection that failed on its own was
   * already released (and dropped) by the runner's error listener.
   */
  private async giveBack(runner: QueryRunner, client: PoolClient, broken: boolean): Promise<void> {
    if (runner.isReleased) return;
    const closed = broken ? client.end().catch(() => undefined) : undefined;
    await runner.release();
    await closed;
  }

  private invoke(callback: () => unknown): void {
    const failed = (error: unknown) =>
      this.logger.error({ err: error instanceof Error ? error : new Error(String(error)) }, 'An after-commit callback failed');
    try {
      const result = callback();
      if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private statementName(text: string): string {
    let name = this.names.get(text);
    if (!name) {
      name = 's' + createHash('sha1').update(text).digest('hex').slice(0, 20);
      this.names.set(text, name);
    }
    return name;
  }
}
