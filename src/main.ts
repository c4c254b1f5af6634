// First: sizes libuv's thread pool before anything starts it.
import './threadpool';
// Second: traces (only with OTEL_EXPORTER_OTLP_ENDPOINT) patch http, express and pg before they load.
import './tracing';
import 'reflect-metadata';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { createApp } from './app';
import { Config, ConfigError, loadConfig, redactUrl } from './config';
import { startEmbeddedPostgres, EmbeddedDatabase } from './database/embedded-postgres';
import { createRootLogger } from './http/logging';
import { tracing } from './observability/tracing-hooks';
import { DemoSeedService, DemoWorld } from './web/demo-seed.service';

interface Banner {
  url: string;
  docs: string;
  database: string;
  rateLimits: string;
  demo?: DemoWorld;
}

/**
 * The start-up banner: where the service is, what it runs on, how to sign in to the demo world.
 * A readable block on a terminal, one structured line otherwise. URLs are redacted (no password).
 */
function printBanner(logger: Logger, pretty: boolean, banner: Banner): void {
  if (!pretty) {
    logger.info(banner, `Arcade Coin Service listening on ${banner.url}`);
    return;
  }
  const lines = [
    'Arcade Coin Service is up',
    `  URL          ${banner.url}   (API documentation: ${banner.docs})`,
    `  Database     ${banner.database}`,
    `  Rate limits  ${banner.rateLimits}`,
  ];
  if (banner.demo) {
    lines.push(`  Demo world   ${banner.demo.seeded ? 'seeded just now' : 'present'}: play at ${banner.demo.playUrl}`);
    for (const account of banner.demo.accounts) lines.push(`    ${account.role.padEnd(10)} ${account.email} / ${account.password}`);
  }
  logger.info(lines.join('\n'));
}

function describeDatabase(config: Config, embedded: EmbeddedDatabase | undefined, dataDir: string): string {
  if (embedded) return `embedded PostgreSQL (DATABASE_URL not set), data in ${dataDir}, port ${new URL(embedded.url).port}`;
  return `PostgreSQL at ${redactUrl(config.databaseUrl!)}`;
}

function describeRateLimits(config: Config): string {
  return config.redisUrl
    ? `counted in Redis at ${redactUrl(config.redisUrl)}, shared by every instance`
    : 'counted in this process (REDIS_URL not set: fine for one instance)';
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const pretty = process.stdout.isTTY === true;
  // Start-up and shutdown lines print whatever LOG_LEVEL says (as `info`): a person starting the service needs them.
  const root = createRootLogger(config, { pretty });
  const logger = root.child({}, { level: 'info' });

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  let databaseOwnerUrl = config.databaseOwnerUrl;
  const dataDir = resolve(config.dataDir, 'postgres');
  if (!databaseUrl) {
    logger.info({ dataDir }, 'DATABASE_URL is not set: starting the embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(dataDir);
    // Migrations as the superuser, requests as the application role (its passwords: <dataDir>.credentials.json).
    databaseUrl = embedded.appUrl;
    databaseOwnerUrl = embedded.url;
    logger.info({ embeddedPort: Number(new URL(databaseUrl).port) }, 'Embedded PostgreSQL is running');
  }

  const app = await createApp({ ...config, databaseUrl, databaseOwnerUrl }, { logger: root });
  await app.nest.listen(config.port);
  printBanner(logger, pretty, {
    url: config.publicOrigin,
    docs: `${config.publicOrigin}/docs`,
    database: describeDatabase(config, embedded, dataDir),
    rateLimits: describeRateLimits(config),
    demo: app.nest.get(DemoSeedService, { strict: false }).demoWorld,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: draining in-flight requests`);
    const force = setTimeout(() => {
      logger.error('Shutdown took longer than 9 s; exiting');
      process.exit(1);
    }, 9000);
    force.unref();
    try {
      await app.close();
      // The spans still batched go out before the process ends.
      await tracing.shutdown?.().catch((error: unknown) => logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'Exporting the last traces failed'));
      if (embedded) await embedded.stop();
      logger.info('Stopped cleanly');
      process.exit(0);
    } catch (error) {
      logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'Shutdown failed');
      process.exit(1);
    }
  };
  // Every signal that would end the process drains it and stops the embedded PostgreSQL (SIGHUP:
  // the terminal of `npm start` closed). Nest's own shutdown hooks stay off: they closed the app on
  // these without stopping the embedded server, then raised the signal again to themselves.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'] as const) process.on(signal, () => void stop(signal));
}

main().catch((error: unknown) => {
  // A configuration the database revealed (a superuser in production): said like the others.
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  process.stdout.write(`${JSON.stringify({ level: 'error', time: Date.now(), msg: 'Start-up failed', error: error instanceof Error ? error.message : String(error) })}\n`);
  process.exit(1);
});
