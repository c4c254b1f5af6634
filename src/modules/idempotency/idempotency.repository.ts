import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { aroundOptional, found, Optional, SqlPart, SqlWrap } from '../../database/sql-part';
import { UnitOfWork } from '../../database/unit-of-work';

export interface IdempotencyRow {
  fingerprint: string;
  status_code: number | null;
  response: Record<string, unknown> | null;
}

/** What the claim answers beside the read's row: whether this transaction now holds the key. */
interface ClaimColumns {
  idem_claimed: boolean;
}
/** Travels with the read's row: true when the read found one (null otherwise). */
interface FoundMarker {
  idem_found: true;
}
/** A row of `claimedRead(read)`. */
export type ClaimedRow<R extends object> = ClaimColumns & Optional<FoundMarker & R>;

/**
 * The claim, then the read in the same statement (it sees the statement's snapshot; a claim that
 * waited for a concurrent holder of the key is answered as a replay, whatever the read saw).
 */
const CLAIM_WITH_READ = new SqlWrap<ClaimColumns, FoundMarker>(
  `WITH claim AS (
    INSERT INTO idempotency_keys (caller, key, fingerprint) VALUES ($+1, $+2, $+3) ON CONFLICT DO NOTHING RETURNING 1
  )
  SELECT EXISTS (SELECT 1 FROM claim) AS "idem_claimed", r.*
    FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT true AS "idem_found", x.* FROM ({read}) AS x) AS r ON true`,
  ['idem_claimed'],
  3,
  ['idem_found'],
);

/**
 * A read (at most one row) that travels with the claim of a key: one round trip. Compose it once
 * (at module load); its values are the read's, then the caller, the key and the fingerprint, which
 * `IdempotencyService.executeWith` adds.
 */
export function claimedRead<R extends object>(read: SqlPart<R>): SqlPart<ClaimedRow<R>> {
  return aroundOptional(CLAIM_WITH_READ, read);
}

/** Stores the answer with the key, riding on the use case's last write; `{result}` (jsonb) is merged into it. */
const STORE_ANSWER = `UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb || {result}
  WHERE caller = $1 AND key = $2 AND {when} RETURNING 1`;

/** A composed `claimedRead` with the read's own values of this request (the claim's are added by `claimWith`). */
export interface ClaimedReadValues<R extends object> {
  part: SqlPart<ClaimedRow<R>>;
  values: unknown[];
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

  /**
   * `claim` and `read` in one round trip: whether this transaction now holds the key, and the read's
   * row (undefined when it found none).
   */
  async claimWith<R extends object>(caller: string, key: string, fingerprint: string, read: ClaimedReadValues<R>): Promise<{ claimed: boolean; row: R | undefined }> {
    this.uow.requireTransaction();
    read.values.push(caller, key, fingerprint);
    const row = (await this.uow.one<ClaimedRow<R>>(read.part.text, read.part.bind(read.values).values))!;
    return { claimed: row.idem_claimed, row: found<FoundMarker & R>(row, 'idem_found') ? row : undefined };
  }

  /** `complete` as a write that rides on the use case's last statement (see RidingWrite). */
  storeAnswer(caller: string, key: string, statusCode: number, response: unknown): RidingWrite {
    return { sql: STORE_ANSWER, values: [caller, key, statusCode, JSON.stringify(response)] };
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
