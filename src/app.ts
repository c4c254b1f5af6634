import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { AppModule, appDeclarations, ModuleImport } from './app.module';
import type { Config } from './config';
import { grantAppRole } from './database/app-role';
import { DatabaseConnectivity } from './database/connectivity';
import { installJobQueue } from './database/job-queue';
import { createDataSource, runMigrations } from './database/data-source';
import { refuseSuperuserWithoutOwner } from './database/superuser-check';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { AppLogger, createRootLogger, requestLifecycle, requestScope } from './http/logging';
import { databasePools } from './database/pools';
import { httpDurationRecorder } from './observability/http-metrics';
import { Metrics } from './observability/metrics';
import { cachePolicy } from './http/cache-policy';
import { jsonBody } from './http/json-body';
import { serveOpenApi } from './http/openapi';
import { applyServerTimeouts } from './http/server-timeouts';
import { AppValidationPipe } from './http/validation.pipe';
import type { Clock } from './modules/rate-limits';
import { PAYMENT_WEBHOOK_PATH } from './modules/payments';
import { THUMBNAIL_UPLOAD_PATH, thumbnailBody } from './modules/developer-portal';

export interface App {
  nest: NestExpressApplication;
  dataSource: DataSource;
  config: Config;
  /** The app's metrics (on with METRICS_TOKEN: CONTRACT §23). */
  metrics: Metrics;
  /** Stops accepting, drains in-flight requests, closes the pool. */
  close(): Promise<void>;
}

/** Bytes of request body accepted (CONTRACT §16.16: "64 KB" is 65,536 bytes). */
export const BODY_LIMIT = 65_536;

/** Connects, retrying while the database is still starting. */
async function initialize(dataSource: DataSource): Promise<DataSource> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await dataSource.initialize();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * Connects and migrates. With an owner URL (DATABASE_OWNER_URL, or the embedded PostgreSQL's
 * superuser) the owner migrates and grants the service's role its data access (app-role.ts), and
 * the service connects as that role; without one, DATABASE_URL's role does both (a superuser
 * there: warned about once, refused with NODE_ENV=production, superuser-check.ts).
 */
async function connect(config: Config & { databaseUrl: string }, connectivity: DatabaseConnectivity, logger: Logger): Promise<DataSource> {
  // Pool errors (idle connections cut by a restart) are logged once per outage, never fatal.
  const hooks = { onPoolError: (error: unknown) => connectivity.failed(error) };
  if (!config.databaseOwnerUrl) {
    const dataSource = await initialize(createDataSource(config.databaseUrl, config, hooks));
    try {
      await refuseSuperuserWithoutOwner(dataSource, config, logger);
    } catch (error) {
      await dataSource.destroy();
      throw error;
    }
    await runMigrations(dataSource);
    await installJobQueue(config.databaseUrl);
    return dataSource;
  }
  const owner = await initialize(createDataSource(config.databaseOwnerUrl, { ...config, dbPoolSize: 2, databaseReadUrls: [] }));
  try {
    await runMigrations(owner);
    const dataSource = await initialize(createDataSource(config.databaseUrl, config, hooks));
    const [{ role }] = (await dataSource.query('SELECT current_user AS role')) as { role: string }[];
    const [{ ownerRole }] = (await owner.query('SELECT current_user AS "ownerRole"')) as { ownerRole: string }[];
    if (role !== ownerRole) await grantAppRole(owner, role);
    await installJobQueue(config.databaseOwnerUrl, role !== ownerRole ? role : undefined);
    return dataSource;
  } finally {
    await owner.destroy();
  }
}

/**
 * Builds the whole HTTP application: body limit, validation pipe, exception filter, security
 * headers, OpenAPI. Shared by main.ts and the tests, so tests exercise exactly what runs.
 */
export interface CreateAppOptions {
  /** Use this (initialized, migrated) data source instead of connecting; the app closes it on close. */
  dataSource?: DataSource;
  /** Extra modules, for tests only (e.g. a controller that throws). */
  imports?: ModuleImport[];
  /** The request deadline (tests only; 9 s otherwise). */
  requestDeadlineMs?: number;
  /** The rate limits' clock (tests only: moved forward instead of sleeping through a window). */
  clock?: Clock;
  /** The process's root logger (main.ts); else one is made from the configuration. */
  logger?: Logger;
}

export async function createApp(config: Config & { databaseUrl: string }, options: CreateAppOptions = {}): Promise<App> {
  const connectivity = new DatabaseConnectivity();
  const logger = options.logger ?? createRootLogger(config);
  const dataSource = options.dataSource ?? (await connect(config, connectivity, logger));
  const declarations = appDeclarations(options.imports);
  // Metrics only with a token to read them: otherwise nothing of them runs (no registry, no middleware).
  const metrics = config.observability.metricsToken ? Metrics.on() : Metrics.off();
  if (metrics.enabled) metrics.watchPools(databasePools(dataSource));
  const nest = await NestFactory.create<NestExpressApplication>(AppModule.register(config, { dataSource, connectivity, metrics }, declarations, options.imports, options.clock), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  nest.useLogger(new AppLogger(logger));
  // First: the request id, the deadline, and when it ends the duration's observe (metrics on) and the log line.
  nest.use(requestLifecycle(logger, { deadlineMs: options.requestDeadlineMs, record: metrics.httpDuration && httpDurationRecorder(metrics.httpDuration) }));
  nest.disable('x-powered-by');
  applyServerTimeouts(nest.getHttpServer());
  nest.set('trust proxy', config.trustProxy);
  nest.set('etag', false);
  // API answers may not be framed or run anything; pages (and /docs) set their own CSP.
  const headers = (directives: Record<string, string[]>) =>
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      hsts: new URL(config.publicOrigin).protocol === 'https:',
    });
  const apiHeaders = headers({ defaultSrc: ["'none'"], frameAncestors: ["'none'"] });
  const docsHeaders = headers({
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'unsafe-inline'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    frameAncestors: ["'none'"],
  });
  nest.use((req: express.Request, res: express.Response, next: express.NextFunction) =>
    (req.path === '/docs' || req.path.startsWith('/docs/') ? docsHeaders : apiHeaders)(req, res, next),
  );
  nest.use(cachePolicy());
  let draining = false;
  nest.use((_req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (draining) res.setHeader('Connection', 'close');
    next();
  });
  // Payment webhooks are verified over the exact bytes the provider signed: their body stays raw
  // (a Buffer), whatever its media type; jsonBody below leaves a body already read alone.
  nest.use(PAYMENT_WEBHOOK_PATH, express.raw({ limit: BODY_LIMIT, type: () => true }));
  // A game's thumbnail is uploaded as the image itself (PNG, JPEG or WebP up to 2 MB, CONTRACT §17.2).
  nest.use(THUMBNAIL_UPLOAD_PATH, thumbnailBody());
  nest.use(jsonBody(BODY_LIMIT));
  // After the body parsers (they call next from the request stream's listeners): the request's log context.
  nest.use(requestScope());
  nest.useGlobalPipes(new AppValidationPipe());
  nest.useGlobalFilters(new AllExceptionsFilter(declarations.errors));
  serveOpenApi(nest, config.publicOrigin);
  try {
    await nest.init();
  } catch (error) {
    // A start-up check failed (e.g. a misused auth decorator): release the pool, report the first error.
    await nest.close().catch(() => undefined);
    if (dataSource.isInitialized && !options.dataSource) await dataSource.destroy();
    throw error;
  }

  let closed = false;
  return {
    nest,
    dataSource,
    config,
    metrics,
    async close() {
      if (closed) return;
      closed = true;
      draining = true;
      // TypeORM's module closes the data source once the server has stopped; this is a second guard.
      await nest.close();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
