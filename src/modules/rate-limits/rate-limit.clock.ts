/**
 * Where the rate-limit windows read the time. Production: the system clock in process, the Redis
 * server's clock in the shared counters (one clock for every instance). Tests hand createApp()
 * a clock they move forward instead of sleeping through a window; the Redis counters then use it
 * too.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
