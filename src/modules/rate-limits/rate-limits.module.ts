import { randomUUID } from 'node:crypto';
import { Global, Logger, Module } from '@nestjs/common';
import Redis from 'ioredis';
import { CONFIG, Config } from '../../config';
import {
  FallbackRateLimitStore,
  MemoryRateLimitStore,
  RateLimitStore,
  RedisRateLimitStore,
  SLIDING_WINDOW_LUA,
  SlidingWindowRedis,
} from './rate-limit.store';
import { RateLimitService } from './rate-limit.service';
import { RATE_LIMIT_STORE } from './rate-limits.tokens';

function createStore(config: Config): RateLimitStore {
  if (!config.redisUrl) return new MemoryRateLimitStore();
  const logger = new Logger('RateLimits');
  const redis = new Redis(config.redisUrl, {
    // Never hold a request while Redis is away: fail at once (and count locally), reconnect in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    if (error.message !== lastError) logger.warn({ reason: error.message }, 'Redis error');
    lastError = error.message;
  });
  redis.on('ready', () => (lastError = ''));
  redis.defineCommand('slidingWindowHit', { lua: SLIDING_WINDOW_LUA });
  return new FallbackRateLimitStore(
    new RedisRateLimitStore(redis as unknown as SlidingWindowRedis, randomUUID()),
    new MemoryRateLimitStore(),
    (failing, reason) =>
      failing
        ? logger.error({ reason }, 'Redis unavailable: rate limits are counted per instance until it is back')
        : logger.warn('Redis is back: rate limits are shared by all instances again'),
  );
}

/** Global: identity, scoring and play sessions all inject RateLimitService without importing this. */
@Global()
@Module({
  providers: [{ provide: RATE_LIMIT_STORE, inject: [CONFIG], useFactory: createStore }, RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitsModule {}
