import { randomUUID } from 'node:crypto';
import { Global, Logger, Module } from '@nestjs/common';
import Redis from 'ioredis';
import { CONFIG, Config } from '../../config';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore, SLIDING_WINDOW_LUA, SlidingWindowRedis } from './rate-limit.store';
import { RateLimitService } from './rate-limit.service';
import { RATE_LIMIT_STORE } from './rate-limits.tokens';

function createStore(config: Config): RateLimitStore {
  if (!config.redisUrl) return new MemoryRateLimitStore();
  const logger = new Logger('RateLimits');
  const redis = new Redis(config.redisUrl, {
    // Fail fast (503) instead of holding requests while Redis is away; reconnects in the background.
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    enableOfflineQueue: true,
  });
  redis.on('error', (error: Error) => logger.warn({ reason: error.message }, 'Redis error'));
  redis.defineCommand('slidingWindowHit', { lua: SLIDING_WINDOW_LUA });
  return new RedisRateLimitStore(redis as unknown as SlidingWindowRedis, randomUUID());
}

/** Global: identity, scoring and play sessions all inject RateLimitService without importing this. */
@Global()
@Module({
  providers: [{ provide: RATE_LIMIT_STORE, inject: [CONFIG], useFactory: createStore }, RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitsModule {}
