import { DynamicModule, Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { DatabaseConnectivity } from './database/connectivity';
import type { Config } from './config';
import { ConfigModule } from './config.module';
import { AuthGuard } from './http/auth.guard';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './modules/health';
import { WalletModule } from './modules/wallet';
import { throttlerRoot } from './modules/rate-limits';
import type { Clock } from './modules/rate-limits';
import { IdempotencyModule } from './modules/idempotency';
import { PlaySessionsModule } from './modules/play-sessions';
import { IdentityModule } from './modules/identity';
import { DeveloperPortalModule } from './modules/developer-portal';
import { AdminModule } from './modules/admin';
import { CatalogueModule } from './modules/catalogue';
import { WebModule } from './web/web.module';
import { PageFallbackModule } from './http/pages/page-fallback.module';
import { ScoringModule } from './modules/scoring';
import { AchievementsModule } from './modules/achievements';
import { RetentionModule } from './modules/retention';
import { WebhooksModule } from './modules/webhooks';
import { AuditModule } from './modules/audit';
import { BooksModule } from './modules/books';
import { PaymentsModule } from './modules/payments';
import { PayoutsModule } from './modules/payouts';
import { AccountDataModule } from './modules/account-data';
import { KERNEL } from './errors/error-status';
import { Metrics } from './observability/metrics';
import { ObservabilityModule } from './observability/observability.module';
import { OperationsModule } from './modules/operations';
import { ComposedDeclarations, composeDeclarations, DeclarationsModule, declaringParts } from './registry/compose';

export type ModuleImport = Type | DynamicModule;

/**
 * Feature modules, one per bounded context. Their order is the order express tries the routes in,
 * one pattern after another: the busiest routes come first (health checks, the public board,
 * play), so a leaderboard read is not tested against fifty portal routes before it matches
 * (docs/performance.md).
 */
const FEATURES = [
  HealthModule,
  ScoringModule,
  PlaySessionsModule,
  AchievementsModule,
  WalletModule,
  IdempotencyModule,
  IdentityModule,
  DeveloperPortalModule,
  AdminModule,
  AuditModule,
  PaymentsModule,
  PayoutsModule,
  BooksModule,
  AccountDataModule,
  CatalogueModule,
  WebModule,
  RetentionModule,
  WebhooksModule,
  // GET /metrics and the periodic books check (CONTRACT §23).
  OperationsModule,
  // Last: the HTML 404 page for unknown paths under /me, /developer, /admin and /checkout.
  PageFallbackModule,
];

/**
 * The app's tables of error codes, audit actions, limits and events: the kernel's and every
 * module's declarations (`@Declares` on its module class), each name once (src/registry).
 * `extra`: modules tests add.
 */
export function appDeclarations(extra: readonly ModuleImport[] = []): ComposedDeclarations {
  return composeDeclarations([{ owner: 'kernel', declarations: KERNEL }, ...declaringParts([...FEATURES, ...extra])]);
}

const MetricsOff = Metrics.off();

@Module({})
export class AppModule {
  /** `clock`: the rate limits' clock (tests move it instead of waiting out a window). */
  static register(
    config: Config,
    database: { dataSource: DataSource; connectivity: DatabaseConnectivity; metrics?: Metrics },
    declarations: ComposedDeclarations,
    extra: ModuleImport[] = [],
    clock?: Clock,
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forConfig(config),
        DeclarationsModule.forDeclarations(declarations),
        DatabaseModule.forDataSource(database.dataSource, database.connectivity),
        ObservabilityModule.forMetrics(database.metrics ?? MetricsOff),
        throttlerRoot(clock),
        ScheduleModule.forRoot(),
        ...FEATURES,
        ...extra,
        DiscoveryModule,
      ],
      // Secure by default: every route is @Public() or states its auth requirement (src/http/auth.guard.ts).
      providers: [{ provide: APP_GUARD, useClass: AuthGuard }],
    };
  }
}
