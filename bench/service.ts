import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../src/database/embedded-postgres';
import { ADMIN } from './seed';

export const MAIN = resolve(__dirname, '../src/main.js');
/** Bench-only preload (bench/heap-probe.ts): counts heap allocation between two SIGWINCH. */
const HEAP_PROBE = resolve(__dirname, 'heap-probe.js');

/** What the service allocated on V8's heap while a probe ran (bench/heap-probe.ts). */
export interface HeapCount {
  allocatedBytes: number;
  gcs: number;
  gcMs: number;
}

/**
 * Node flags of the production start (`npm run start:prod`: `node <flags> dist/src/main.js`), so the
 * bench measures the process exactly as it is deployed (the heap limit changes RSS a lot).
 */
export function productionNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const match = /^node\s+(.*?)\s*dist\/src\/main\.js$/.exec(pkg.scripts?.['start:prod'] ?? '');
  return match && match[1] ? match[1].split(/\s+/) : [];
}

export interface BenchService {
  url: string;
  pid: number;
  /** Resident set size of the service process right now, in MB. */
  rssMb(): number;
  /** CPU time (user + system) the service process has used so far, in seconds. */
  cpuSeconds(): number;
  output(): string;
  /** Starts counting heap allocation in the service (resolves once it counts). */
  startHeapCount(): Promise<void>;
  /** Stops the count started last and returns it. */
  stopHeapCount(): Promise<HeapCount>;
  stop(): Promise<void>;
}

/** Reads VmRSS (kB) from /proc; 0 when the process is gone. */
export function rssMbOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime from /proc/<pid>/stat (clock ticks of 1/100 s on Linux); 0 when the process is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * What the bench's service runs with besides production's defaults (see startBenchService).
 * `admin`: the administrator its seeding signs in as (another checkout's bench/seed.js may have its own).
 */
export function benchServiceEnv(databaseUrl: string, admin: { email: string; password: string } = ADMIN): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    // The bench's database URL is its server's superuser: named as the owner too, which production requires of a superuser (issue 26).
    DATABASE_OWNER_URL: databaseUrl,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // Seeding verifies players and approves versions through the admin API as an admin without
    // two-factor; production's default (ADMIN_REQUIRE_2FA=true) refuses that with 403 TWO_FACTOR_REQUIRED.
    ADMIN_REQUIRE_2FA: 'false',
    // Developer endpoints are limited per key (configurable); the bench measures the path, not the limit.
    RATE_LIMIT_DEVELOPER_PER_KEY: '100000000/60',
    // Seeding signs every player up from this one address.
    RATE_LIMIT_SIGNUP_PER_ADDRESS: '100000000/3600',
    RATE_LIMIT_SIGNUP_GLOBAL: '100000000/60',
  };
}

/**
 * The built service as a real child process in production mode, as it runs in a deployment.
 * `checkout`: the root of another checkout to run instead, built (`npm run build`) with its own
 * node_modules (bench/compare.ts: two commits side by side). `node`: the Node binary to run it on
 * (bench/compare.ts `--node-a`/`--node-b`: Node 24 against 20); by default the bench's own.
 */
export async function startBenchService(env: Record<string, string>, nodeArgs: string[] = [], checkout?: string, node = process.execPath): Promise<BenchService> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let out = '';
  const main = checkout ? resolve(checkout, 'dist/src/main.js') : MAIN;
  const child: ChildProcess = spawn(node, [...productionNodeFlags(), '--require', HEAP_PROBE, ...nodeArgs, main], {
    ...(checkout ? { cwd: checkout } : {}),
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      // The bench buys nothing; production would otherwise need the Stripe keys (docs/payments.md).
      PAYMENT_PROVIDER: 'sandbox',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep the tail only: a long run must not grow the bench's own memory.
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // The heap probe's answers, one line each; waiters in order.
  const probeWaiters: ((line: string) => void)[] = [];
  let partial = '';
  child.stderr!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('heap-probe ')) probeWaiters.shift()?.(line.slice('heap-probe '.length));
  });
  const probe = (): Promise<string> =>
    new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error('heap probe did not answer within 10 s')), 10_000);
      probeWaiters.push((line) => {
        clearTimeout(timer);
        res(line);
      });
      child.kill('SIGWINCH');
    });
  let stopping = false;
  const exited = new Promise<void>((res) =>
    child.on('exit', (code, signal) => {
      // A service that dies under load is a finding: say how, with the end of its output.
      if (!stopping) process.stderr.write(`\nservice pid ${child.pid} exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${out.slice(-4000)}\n`);
      res();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid!,
    rssMb: () => rssMbOf(child.pid!),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    output: () => out,
    async startHeapCount() {
      await probe();
    },
    async stopHeapCount() {
      return JSON.parse(await probe()) as HeapCount;
    },
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(force);
    },
  };
}
