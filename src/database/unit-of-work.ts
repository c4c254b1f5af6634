import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { isDatabaseUnavailable } from '../errors/database-errors';

interface Transaction {
  client: PoolClient;
  afterCommit: (() => void)[];
}

/**
 * One transaction per use case. `run(work)` takes a connection from the pool TypeORM owns, opens a
 * transaction on it and keeps it in AsyncLocalStorage; nested `run` calls join it. Repositories
 * call `query()` on every call: inside a transaction it goes to that transaction's connection,
 * outside it to the pool.
 *
 * Statements are sent as named prepared statements: parsed and planned once per connection. The
 * transaction is driven on the `pg` connection itself (BEGIN, COMMIT, ROLLBACK): TypeORM's
 * QueryRunner added an object graph, events and a logger call to every request for nothing we use
 * (docs/performance.md).
 */
@Injectable()
export class UnitOfWork {
  private readonly storage = new AsyncLocalStorage<Transaction>();
  private readonly names = new Map<string, string>();

  constructor(readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.storage.getStore()) return work();
    const client = await this.pool.connect();
    const transaction: Transaction = { client, afterCommit: [] };
    let open = false;
    let result: T;
    try {
      await client.query('BEGIN');
      open = true;
      result = await this.storage.run(transaction, work);
      open = false;
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      // After a timeout or a lost connection the server may still be running our statement inside
      // the open transaction; pooled again, that connection would run the next request's statements
      // in this transaction. Such a connection (or one that cannot roll back) is destroyed.
      let broken = isDatabaseUnavailable(error) || !open;
      if (!broken) broken = await client.query('ROLLBACK').then(() => false, () => true);
      client.release(broken ? (error instanceof Error ? error : true) : undefined);
      throw error;
    }
    for (const fn of transaction.afterCommit) fn();
    return result;
  }

  /**
   * Runs `fn` once the current transaction has committed (at once outside a transaction); never
   * when it rolls back. For effects outside the database: cache invalidation, events.
   */
  afterCommit(fn: () => void): void {
    const transaction = this.storage.getStore();
    if (transaction) transaction.afterCommit.push(fn);
    else fn();
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /** For writes that must never half-commit (the ledger): refuses to run outside `run()`. */
  requireTransaction(): void {
    if (!this.storage.getStore()) {
      throw new Error('This write must run inside UnitOfWork.run(): it is part of a transaction.');
    }
  }

  async query<T extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const target: Pool | PoolClient = this.storage.getStore()?.client ?? this.pool;
    const result = await target.query<T>({ name: this.statementName(text), text, values });
    return result.rows;
  }

  async one<T extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<T | undefined> {
    const rows = await this.query<T>(text, values);
    return rows[0];
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
