import 'reflect-metadata';
import { resolve } from 'node:path';
import { createApp } from './app';
import { ConfigError, loadConfig, redactUrl } from './config';
import { startEmbeddedPostgres, EmbeddedDatabase } from './database/embedded-postgres';

/** Console lines before the structured logger exists (start-up) and after it is gone. */
function say(level: 'info' | 'error', msg: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(JSON.stringify({ level, time: Date.now(), msg, ...extra }) + '\n');
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

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dir = resolve(config.dataDir, 'postgres');
    say('info', 'DATABASE_URL is not set: starting the embedded PostgreSQL', { dataDir: dir });
    embedded = await startEmbeddedPostgres(dir);
    databaseUrl = embedded.url;
    say('info', 'Embedded PostgreSQL is running', { embeddedPort: Number(new URL(databaseUrl).port) });
  } else {
    say('info', 'Using PostgreSQL from DATABASE_URL', { databaseUrl: redactUrl(databaseUrl) });
  }

  const app = await createApp({ ...config, databaseUrl });
  await app.nest.listen(config.port);
  say('info', `Arcade Coin Service listening on ${config.publicOrigin}`, {
    url: config.publicOrigin,
    docs: `${config.publicOrigin}/docs`,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say('info', `${signal} received: draining in-flight requests`);
    const force = setTimeout(() => {
      say('error', 'Shutdown took longer than 9 s; exiting');
      process.exit(1);
    }, 9000);
    force.unref();
    try {
      await app.close();
      if (embedded) await embedded.stop();
      say('info', 'Stopped cleanly');
      process.exit(0);
    } catch (error) {
      say('error', 'Shutdown failed', { error: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  say('error', 'Start-up failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
