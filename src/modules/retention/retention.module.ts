import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency';
import { IdentityModule } from '../identity';
import { RetentionService } from './retention.service';

/** The daily purge of expired data (idempotency keys, login sessions, e-mail tokens); the schedule comes from ScheduleModule in AppModule. */
@Module({ imports: [IdempotencyModule, IdentityModule], providers: [RetentionService], exports: [RetentionService] })
export class RetentionModule {}
