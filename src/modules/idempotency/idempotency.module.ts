import { Global, Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** Global: play sessions, scoring and admin inject IdempotencyService without importing this. */
@Global()
@Module({ providers: [IdempotencyRepository, IdempotencyService], exports: [IdempotencyService] })
export class IdempotencyModule {}
