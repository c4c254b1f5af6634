import { Module } from '@nestjs/common';
import { BooksModule } from '../books';
import { InvariantCheckService } from './invariant-check.service';
import { MetricsController } from './metrics.controller';

/**
 * Operating the service (CONTRACT §23): `GET /metrics` over the app's Metrics (src/observability)
 * and the periodic books check. Owns no table; declares nothing beyond the kernel's errors.
 */
@Module({
  imports: [BooksModule],
  controllers: [MetricsController],
  providers: [InvariantCheckService],
  exports: [InvariantCheckService],
})
export class OperationsModule {}
