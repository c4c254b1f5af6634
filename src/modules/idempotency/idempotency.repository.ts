import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

export interface IdempotencyRow {
  fingerprint: string;
  status_code: number | null;
  response: Record<string, unknown> | null;
}

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly uow: UnitOfWork) {}

  find(caller: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.uow.one<IdempotencyRow>(
      'SELECT fingerprint, status_code, response FROM idempotency_keys WHERE caller = $1 AND key = $2',
      [caller, key],
    );
  }

  /**
   * True when this transaction now holds the key. A concurrent holder's uncommitted row makes this
   * wait for its transaction: on commit we get false (and then see its row), on rollback true.
   */
  async claim(caller: string, key: string, fingerprint: string): Promise<boolean> {
    this.uow.requireTransaction();
    const rows = await this.uow.query(
      'INSERT INTO idempotency_keys (caller, key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1 AS claimed',
      [caller, key, fingerprint],
    );
    return rows.length === 1;
  }

  /** Gives up a claim of this transaction (an answer not kept): a waiting duplicate then claims it. */
  async release(caller: string, key: string): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query('DELETE FROM idempotency_keys WHERE caller = $1 AND key = $2', [caller, key]);
  }

  async complete(caller: string, key: string, statusCode: number, response: unknown): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query(
      'UPDATE idempotency_keys SET status_code = $3, response = $4 WHERE caller = $1 AND key = $2',
      [caller, key, statusCode, JSON.stringify(response)],
    );
  }

  /**
   * Deletes up to `limit` keys created before `cutoff`; returns how many. One short statement per
   * batch; rows locked by a request in flight are skipped, not waited for.
   */
  async purgeBatch(cutoff: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(
      `DELETE FROM idempotency_keys WHERE (caller, key) IN (
         SELECT caller, key FROM idempotency_keys WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING 1`,
      [cutoff, limit],
    );
    return rows.length;
  }
}
