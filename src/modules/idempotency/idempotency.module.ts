import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { Declares } from '../../registry/declarations';
import { IDEMPOTENCY } from './idempotency.declarations';

/** Idempotency-Key handling for the money routes; the modules that use IdempotencyService import this. */
@Declares(IDEMPOTENCY)
@Module({ imports: [TypeOrmModule.forFeature([IdempotencyKey])], providers: [IdempotencyRepository, IdempotencyService], exports: [IdempotencyService] })
export class IdempotencyModule {}
