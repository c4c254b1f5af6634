import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../../src/database/embedded-postgres';

export const MAIN = resolve(__dirname, '../../dist/src/main.js');

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The line the service prints once it listens (main.ts's banner, JSON or pretty); its signal handlers are set by then. */
const LISTENING = /Arcade Coin Service (listening on|is up)/;

/**
 * Starts the built service (`npm run build` first) as a real process. Like the in-process test
 * apps it hashes passwords at the test-only cost unless `env` sets PASSWORD_HASH_COST=owasp or
 * another NODE_ENV.
 *
 * Ready means this child printed its banner and `/health/ready` answers: a free port is only free
 * when asked, and once another worker's service took it between freePort() and the child's listen,
 * so the readiness poll was answered by that service while this child was still starting (a
 * SIGTERM then ended it before its handlers were set). A port taken in the meantime is retried on
 * a new one unless `env.PORT` fixes it.
 */
export async function startService(env: Record<string, string>, options: { waitReady?: boolean; timeoutMs?: number } = {}): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    const { service, closed } = spawnService(env, env.PORT ? Number(env.PORT) : await freePort());
    if (options.waitReady === false) return service;
    const portMayChange = !env.PORT && attempt < 3;
    if ((await waitReady(service, closed, options.timeoutMs ?? 30_000, portMayChange)) === 'ready') return service;
  }
}

/** The process, and `closed`: its exit with every line it printed read. */
function spawnService(env: Record<string, string>, port: number): { service: ServiceProcess; closed: Promise<void> } {
  // Only a test run may hash cheaply (config.ts refuses it otherwise): a service started as production stays at OWASP's cost.
  const testOnlyCost = (env.NODE_ENV ?? 'test') === 'test' ? { PASSWORD_HASH_COST: 'test' } : {};
  let out = '';
  let stopping = false;
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...testOnlyCost, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) =>
    child.on('exit', (code, signal) => {
      // A failed stop is read in CI's log: say how the process ended and what it printed last.
      if (code !== 0 && stopping) process.stderr.write(`service on port ${port} ended with code ${code} signal ${signal}; its last output:\n${out.slice(-4000)}\n`);
      res(code);
    }),
  );
  const closed = new Promise<void>((res) => child.on('close', () => res()));
  const url = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    child,
    url,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  return { service, closed };
}

/** 'ready', or 'retry' when the child exited because its port was taken and `portMayChange`; throws on any other failure. */
async function waitReady(service: ServiceProcess, closed: Promise<void>, timeoutMs: number, portMayChange: boolean): Promise<'ready' | 'retry'> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service.child.exitCode !== null) {
      await closed;
      if (portMayChange && service.output().includes('EADDRINUSE')) return 'retry';
      throw new Error(`service exited with ${service.child.exitCode}: ${service.output()}`);
    }
    if (LISTENING.test(service.output())) {
      try {
        const res = await fetch(`${service.url}/health/ready`);
        if (res.status === 200) return 'ready';
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > deadline) {
      service.child.kill('SIGKILL');
      throw new Error(`service not ready in time: ${service.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface PostgresProcess {
  url: string;
  /** Fast shutdown of the server (its clients' connections are cut), then the process exits. */
  stop(): Promise<void>;
}

/**
 * An embedded PostgreSQL in a process of its own (Jest's module sandbox cannot load the ESM
 * package), on a fixed port so that a restarted server is found where its clients expect it.
 */
export async function startPostgresProcess(dataDir: string, port: number): Promise<PostgresProcess> {
  const script = `
    const { startEmbeddedPostgres } = require(process.env.EMBEDDED_MODULE);
    startEmbeddedPostgres(process.env.PG_DIR, () => undefined, Number(process.env.PG_PORT)).then(
      (db) => {
        process.on('SIGTERM', () => db.stop().then(() => process.exit(0), () => process.exit(1)));
        process.stdout.write(JSON.stringify({ url: db.url }) + '\\n');
      },
      (error) => { process.stderr.write(String((error && error.stack) || error)); process.exit(1); },
    );`;
  const child = spawn(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '', EMBEDDED_MODULE: resolve(__dirname, '../../dist/src/database/embedded-postgres.js'), PG_DIR: dataDir, PG_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const url = await new Promise<string>((res, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = /\{"url":"[^"]+"\}/.exec(out);
      if (line) res(JSON.parse(line[0]).url);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((code) => reject(new Error(`PostgreSQL process exited with ${code}: ${out}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
