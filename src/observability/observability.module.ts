import { DynamicModule, Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The app's Metrics (on with METRICS_TOKEN, else no-ops), injectable in every module. */
@Global()
@Module({})
export class ObservabilityModule {
  static forMetrics(metrics: Metrics): DynamicModule {
    return { module: ObservabilityModule, providers: [{ provide: Metrics, useValue: metrics }], exports: [Metrics] };
  }
}
