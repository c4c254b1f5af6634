import { Module } from '@nestjs/common';
import { RetentionService } from './retention.service';

/** The daily purge of expired data (idempotency keys, login sessions, e-mail tokens); the schedule comes from ScheduleModule in AppModule. */
@Module({ providers: [RetentionService], exports: [RetentionService] })
export class RetentionModule {}
