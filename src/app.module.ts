import { DynamicModule, Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { DatabaseConnectivity } from './database/connectivity';
import type { Config } from './config';
import { ConfigModule } from './config.module';
import { AuthGuard } from './http/auth.guard';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './modules/health/health.module';
import { WalletModule } from './modules/wallet/wallet.module';
import { throttlerRoot } from './modules/rate-limits/rate-limits.module';
import type { Clock } from './modules/rate-limits/rate-limit.clock';
import { IdempotencyModule } from './modules/idempotency/idempotency.module';
import { PlaySessionsModule } from './modules/play-sessions/play-sessions.module';
import { IdentityModule } from './modules/identity/identity.module';
import { DeveloperPortalModule } from './modules/developer-portal/developer-portal.module';
import { AdminModule } from './modules/admin/admin.module';
import { CatalogueModule } from './modules/catalogue/catalogue.module';
import { WebModule } from './web/web.module';
import { PageFallbackModule } from './web/layout/page-fallback.module';
import { ScoringModule } from './modules/scoring/scoring.module';
import { AchievementsModule } from './modules/achievements/achievements.module';
import { RetentionModule } from './modules/retention/retention.module';
import { AuditModule } from './modules/audit/audit.module';
import { PaymentsModule } from './modules/payments/payments.module';

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
  CatalogueModule,
  WebModule,
  RetentionModule,
  // Last: the HTML 404 page for unknown paths under /me, /developer, /admin and /checkout.
  PageFallbackModule,
];

@Module({})
export class AppModule {
  /** `clock`: the rate limits' clock (tests move it instead of waiting out a window). */
  static register(config: Config, database: { dataSource: DataSource; connectivity: DatabaseConnectivity }, extra: ModuleImport[] = [], clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forConfig(config),
        DatabaseModule.forDataSource(database.dataSource, database.connectivity),
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
