import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { IdempotencyKeyConflictError } from './idempotency.errors';
import { requestFingerprint } from './idempotency.fingerprint';
import type { RidingWrite } from '../../database/riding-write';
import { ClaimedReadValues, IdempotencyRepository, IdempotencyRow } from './idempotency.repository';

export { claimedRead } from './idempotency.repository';
export type { ClaimedReadValues, ClaimedRow } from './idempotency.repository';

/** Who a key belongs to (CONTRACT §7): keys of different callers never meet. */
export type IdempotencyCaller = `account:${string}` | `developer:${string}`;

export interface IdempotentRequest {
  caller: IdempotencyCaller;
  key: string;
  /** From `IdempotencyService.fingerprint(endpoint, pathId, body)`. */
  fingerprint: string;
  /**
   * Throws the 404 (or 410) of the resource the path names. Run only before a key conflict is
   * answered: CONTRACT §16.17 puts the path's 404 before a 409, so a reused key on an unknown
   * insertion or session is 404. Replays never need it (the key was used on that resource).
   */
  checkPath?: () => Promise<unknown>;
}

/** An answer as first given (`replayed: false`) or replayed from the store (`replayed: true`). */
export interface IdempotentResult<T> {
  statusCode: number;
  body: T & { replayed: boolean };
  replayed: boolean;
}

/** An answer given once but not kept with its key (test mode): the claim is released, a retry runs again. */
export class UnkeptAnswer<T> {
  constructor(readonly body: T) {}
}

/**
 * Stores a first answer with its key as part of the use case's last write (`executeWith`): the
 * write's host statement carries `ride(answer)` as one more CTE, so storing costs no round trip.
 */
export class AnswerStore {
  private stored = false;

  constructor(private readonly keys: IdempotencyRepository, private readonly request: IdempotentRequest, private readonly statusCode: number) {}

  /** The write that stores `answer` (merged with the host's `{result}`) once the host's own write happened. */
  ride(answer: object): RidingWrite {
    this.stored = true;
    return this.keys.storeAnswer(this.request.caller, this.request.key, this.statusCode, answer);
  }

  get rode(): boolean {
    return this.stored;
  }
}

/**
 * Idempotency keys for insert-coin, both score endpoints and admin credits (CONTRACT §7, §16.5).
 *
 *   const request = { caller: `account:${id}`, key, fingerprint: idem.fingerprint('insert-coin', sessionId, body) };
 *   return uow.run(() => idem.execute(request, 200, async () => {
 *     ... load and check state (404, 410), limits, money ...
 *     return { ..., replayed: false };
 *   }));
 *
 * `execute` first claims the key with INSERT ... ON CONFLICT DO NOTHING inside the caller's
 * transaction, so a replay is answered before any state check (a key conflict only after the
 * request's `checkPath`, the path's 404, CONTRACT §16.17), and concurrent
 * duplicates wait for the first and then replay it; a use case that throws (402, 429, 410 ...)
 * rolls its claim back and the key stays usable. Answered keys are kept IDEMPOTENCY_RETENTION_DAYS
 * (at least 7, §7), then the daily purge (RetentionService) deletes them.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyRepository, private readonly uow: UnitOfWork) {}

  /** One batch of the retention purge: up to `limit` keys created before `cutoff`; returns how many went. */
  purgeBatch(cutoff: Date, limit: number): Promise<number> {
    return this.keys.purgeBatch(cutoff, limit);
  }

  fingerprint(endpoint: string, resourceId: string, body: unknown): string {
    return requestFingerprint(endpoint, resourceId, body);
  }

  /**
   * Runs `work` once per key inside the current transaction and stores its answer with the key,
   * unless `work` answers with an `UnkeptAnswer` (nothing is stored for the key then).
   */
  async execute<T extends { replayed: boolean }>(
    request: IdempotentRequest,
    statusCode: number,
    work: () => Promise<T | UnkeptAnswer<T>>,
  ): Promise<IdempotentResult<T>> {
    this.uow.requireTransaction();
    if (!(await this.keys.claim(request.caller, request.key, request.fingerprint))) {
      const row = await this.keys.find(request.caller, request.key);
      // The holder committed before our claim returned, so its row is visible to this statement.
      if (!row) throw new Error('Idempotency key lost its row after a failed claim.');
      if (row.fingerprint !== request.fingerprint) await request.checkPath?.();
      return this.replay<T>(row, request);
    }
    const answer = await work();
    if (answer instanceof UnkeptAnswer) {
      await this.keys.release(request.caller, request.key);
      return { statusCode, body: answer.body, replayed: false };
    }
    await this.keys.complete(request.caller, request.key, statusCode, answer);
    return { statusCode, body: answer, replayed: false };
  }

  /**
   * `execute` for the hot paths (insert-coin, both scores: docs/performance.md): the claim travels
   * with the use case's first read (`read`: a `claimedRead(part)` composed once, and the read's
   * values of this request; one round trip), and `work` may store its answer with
   * its last write (`store.ride(answer)`); otherwise it is stored after `work` as in `execute`.
   * A key conflict is answered after `checkRead(row)` (the path's 404, CONTRACT §16.17) on the row
   * the claim's statement read, at no extra round trip; a replay costs one (the stored answer).
   */
  async executeWith<T extends { replayed: boolean }, R extends object>(
    request: IdempotentRequest & {
      checkRead?: (row: R | undefined) => void;
      /** Throws the caller's own refusal (401) from the row the claim read, before anything is answered, a replay included. */
      checkCaller?: (row: R | undefined) => void;
    },
    statusCode: number,
    read: ClaimedReadValues<R>,
    work: (row: R | undefined, store: AnswerStore) => Promise<T | UnkeptAnswer<T>>,
  ): Promise<IdempotentResult<T>> {
    this.uow.requireTransaction();
    const claim = await this.keys.claimWith<R>(request.caller, request.key, request.fingerprint, read);
    request.checkCaller?.(claim.row);
    if (!claim.claimed) {
      const row = await this.keys.find(request.caller, request.key);
      if (!row) throw new Error('Idempotency key lost its row after a failed claim.');
      if (row.fingerprint !== request.fingerprint) request.checkRead?.(claim.row);
      return this.replay<T>(row, request);
    }
    const store = new AnswerStore(this.keys, request, statusCode);
    const answer = await work(claim.row, store);
    if (answer instanceof UnkeptAnswer) {
      await this.keys.release(request.caller, request.key);
      return { statusCode, body: answer.body, replayed: false };
    }
    if (!store.rode) await this.keys.complete(request.caller, request.key, statusCode, answer);
    return { statusCode, body: answer, replayed: false };
  }

  private replay<T>(row: IdempotencyRow, request: IdempotentRequest): IdempotentResult<T> {
    if (row.fingerprint !== request.fingerprint) throw new IdempotencyKeyConflictError();
    if (row.response === null || row.status_code === null) {
      throw new Error('Idempotency key was committed without its answer.');
    }
    return { statusCode: 200, body: { ...(row.response as T), replayed: true }, replayed: true };
  }
}
