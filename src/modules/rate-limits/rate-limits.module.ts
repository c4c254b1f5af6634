import { DynamicModule, Logger, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { CONFIG, Config, redactUrl } from '../../config';
import { ComposedDeclarations, DECLARATIONS } from '../../registry/compose';
import { Clock, systemClock } from './rate-limit.clock';
import { FallbackRateLimitStorage, MemoryRateLimitStorage, RateLimitStorage, RedisRateLimitStorage } from './rate-limit.storage';
import { RateLimiter } from './rate-limiter.service';
import { throttlerOptions } from './throttlers';

/**
 * REDIS_URL set: counters in Redis, shared by every instance, with this process's own counters
 * while Redis is unreachable (logged once each way; /health/ready says which). Unset: in process.
 */
export function createRateLimitStorage(config: Pick<Config, 'redisUrl'>, clock: Clock | undefined): RateLimitStorage {
  if (!config.redisUrl) return new MemoryRateLimitStorage(clock ?? systemClock);
  const logger = new Logger('RateLimits');
  const redis = new Redis(config.redisUrl, {
    // Never hold a request while Redis is away: fail at once (and count locally), reconnect in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
  });
  // ioredis repeats the same error on every reconnect attempt; the switch below is the line that matters.
  redis.on('error', (error: Error) => logger.debug({ reason: error.message }, 'Redis error'));
  const where = redactUrl(config.redisUrl);
  return new FallbackRateLimitStorage(new RedisRateLimitStorage(redis, clock), new MemoryRateLimitStorage(clock ?? systemClock), (failing, reason) =>
    failing
      ? logger.error({ redis: where, reason }, 'Redis unreachable: rate limits are counted by each instance on its own until it is back')
      : logger.log({ redis: where }, 'Redis is back: rate limits are counted across all instances again'),
  );
}

/**
 * Every declared limit as a named throttler of `@nestjs/throttler`, configured once for the application
 * (`ThrottlerModule` is global: its guard and storage are available to every module). `clock`:
 * tests only.
 */
export function throttlerRoot(clock?: Clock): DynamicModule {
  return ThrottlerModule.forRootAsync({
    inject: [CONFIG, DECLARATIONS],
    useFactory: (config: Config, declarations: ComposedDeclarations) => throttlerOptions(config, createRateLimitStorage(config, clock), declarations),
  });
}

/** `RateLimiter` for the use cases that count their limits themselves (import this module to use it). */
@Module({
  providers: [RateLimiter],
  exports: [RateLimiter],
})
export class RateLimitsModule {}
