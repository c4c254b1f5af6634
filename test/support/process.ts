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

/** Starts the built service (`npm run build` first) as a real process. */
export async function startService(env: Record<string, string>, options: { waitReady?: boolean; timeoutMs?: number } = {}): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let out = '';
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const url = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    child,
    url,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady !== false) {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${out}`);
      try {
        const res = await fetch(`${url}/health/ready`);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`service not ready in time: ${out}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return service;
}
