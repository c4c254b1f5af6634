import type { Clock } from '../../src/modules/rate-limits/rate-limit.clock';

/**
 * The rate limits' clock in tests: real time plus whatever the test skipped. `advance(ms)` moves
 * past a rate-limit window at once instead of sleeping through it; everything else (the database's
 * clock, session idle timeouts, timers) keeps real time.
 */
export class TestClock implements Clock {
  private skipped = 0;

  now(): number {
    return Date.now() + this.skipped;
  }

  advance(ms: number): void {
    this.skipped += ms;
  }
}
