import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** Global: play sessions, scoring and admin inject IdempotencyService without importing this. */
@Global()
@Module({ imports: [TypeOrmModule.forFeature([IdempotencyKey])], providers: [IdempotencyRepository, IdempotencyService], exports: [IdempotencyService] })
export class IdempotencyModule {}
