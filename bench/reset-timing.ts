/**
 * `npm run bench:reset-timing`: does `POST /auth/password-reset` take as long for an unknown e-mail
 * as for a known one (CONTRACT §20, issue 28: medians within 20% over 50 tries each)? A
 * measurement, not a test: timings never decide a pass or a fail in the suite (the e2e test proves
 * the same statements run either way); this reports the medians and their ratio.
 *
 * The service runs as in production (bench/service.ts) on its own database; the reset limits are
 * lifted so every request does the whole work (a limited request does less, known or not alike).
 * Known and unknown requests alternate in ABBA order so that drift (caches warming, autovacuum)
 * falls on both alike.
 */
import { randomUUID } from 'node:crypto';
import { Caller } from './client';
import { openBenchDatabase } from './database';
import { benchServiceEnv, startBenchService } from './service';

const TRIES = 50;
const WARM_UP = 10;

function log(line: string): void {
  process.stderr.write(`[reset-timing] ${line}\n`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function timedReset(baseUrl: string, email: string): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${baseUrl}/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  await res.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 202) throw new Error(`POST /auth/password-reset answered ${res.status}`);
  return ms;
}

async function main(): Promise<void> {
  const db = await openBenchDatabase(log);
  const service = await startBenchService({
    ...benchServiceEnv(db.url),
    RATE_LIMIT_RESET_PER_EMAIL: '100000000/3600',
    RATE_LIMIT_RESET_PER_ADDRESS: '100000000/3600',
    RATE_LIMIT_MAIL_GLOBAL: '100000000/3600',
  });
  try {
    const known = `reset-timing-${randomUUID()}@bench.invalid`;
    await new Caller(service.url).post('/auth/signup', { email: known, password: 'bench-password-1', displayName: 'Reset timing', linkPlayer: true });
    const unknown = () => `nobody-${randomUUID()}@bench.invalid`;
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < WARM_UP + TRIES; i++) {
      const order: Array<'known' | 'unknown'> = i % 2 ? ['unknown', 'known'] : ['known', 'unknown'];
      for (const kind of order) {
        const ms = await timedReset(service.url, kind === 'known' ? known : unknown());
        if (i >= WARM_UP) times[kind].push(ms);
      }
    }
    const k = median(times.known);
    const u = median(times.unknown);
    const ratio = u / k;
    process.stdout.write(
      `POST /auth/password-reset, ${TRIES} tries each after ${WARM_UP} warm-up pairs, ABBA order\n` +
        `  known e-mail:   median ${k.toFixed(2)} ms\n` +
        `  unknown e-mail: median ${u.toFixed(2)} ms\n` +
        `  unknown / known: ${ratio.toFixed(3)} (${Math.abs(ratio - 1) <= 0.2 ? 'within' : 'NOT within'} 20%)\n`,
    );
  } finally {
    await service.stop();
    await db.dispose();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
