import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { isDatabaseUnavailable } from '../errors/database-errors';

/**
 * One transaction per use case. `run(work)` opens a transaction on a TypeORM QueryRunner and keeps
 * it in AsyncLocalStorage; nested `run` calls join it. Repositories call `query()` on every call:
 * inside a transaction it goes to that transaction's connection, outside it to the pool.
 *
 * Statements are sent as named prepared statements through the QueryRunner's own `pg`
 * connection: parsed and planned once per connection, the biggest saving on the hot path.
 */
@Injectable()
export class UnitOfWork {
  private readonly storage = new AsyncLocalStorage<QueryRunner>();
  private readonly names = new Map<string, string>();

  constructor(readonly dataSource: DataSource) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.storage.getStore()) return work();
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const result = await this.storage.run(runner, work);
      await runner.commitTransaction();
      return result;
    } catch (error) {
      // After a timeout or a lost connection the server may still be running our statement inside
      // the open transaction; pooled again, that connection would run the next request's statements
      // in this transaction. Such a connection (or one that cannot roll back) is destroyed.
      let broken = isDatabaseUnavailable(error);
      if (!broken && runner.isTransactionActive) {
        broken = await runner.rollbackTransaction().then(() => false, () => true);
      }
      if (broken) await (runner as unknown as { releasePostgresConnection(err: unknown): Promise<void> }).releasePostgresConnection(error);
      throw error;
    } finally {
      await runner.release().catch(() => undefined);
    }
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
    const runner = this.storage.getStore();
    const target: Pool | PoolClient = runner
      ? (runner as unknown as { databaseConnection: PoolClient }).databaseConnection
      : (this.dataSource.driver as unknown as { master: Pool }).master;
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
