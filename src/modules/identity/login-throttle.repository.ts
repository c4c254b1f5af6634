import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

@Injectable()
export class LoginThrottleRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Sliding window: when `limit` failures of this subject fall within the last `windowMs`, the
   * milliseconds until the oldest of those leaves the window; else 0.
   */
  async retryAfterMs(subjectHash: Buffer, limit: number, windowMs: number): Promise<number> {
    const row = await this.uow.one<{ retry_ms: number }>(
      `SELECT ceil(extract(epoch FROM (failed_at + make_interval(secs => $2::float8 / 1000) - clock_timestamp())) * 1000)::int AS retry_ms
         FROM login_failures
        WHERE subject_hash = $1 AND failed_at > clock_timestamp() - make_interval(secs => $2::float8 / 1000)
        ORDER BY failed_at DESC
       OFFSET $3 - 1 LIMIT 1`,
      [subjectHash, windowMs, limit],
    );
    return row ? Math.max(1, row.retry_ms) : 0;
  }

  async record(subjectHashes: Buffer[]): Promise<void> {
    await this.uow.query('INSERT INTO login_failures (subject_hash, failed_at) SELECT unnest($1::bytea[]), clock_timestamp()', [subjectHashes]);
  }

  async forget(subjectHash: Buffer): Promise<void> {
    await this.uow.query('DELETE FROM login_failures WHERE subject_hash = $1', [subjectHash]);
  }

  /** Failures older than the longest configurable window (one day) count for nothing. */
  async prune(): Promise<void> {
    await this.uow.query("DELETE FROM login_failures WHERE failed_at < now() - interval '1 day'");
  }
}
