import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { openBenchDatabase, withDatabase } from './database';
import { LoadOptions, runLoad } from './load';
import { heartbeatRequests, insertCoinRequests, pageRequests, verifyRequests } from './requests';
import type * as Seed from './seed';
import { BenchService, benchServiceEnv, startBenchService } from './service';

/**
 * Two builds of the service side by side, for "is B slower than A?" when the answer is a few
 * percent: two full `npm run bench` runs minutes apart differ by 10-20% on this VM, more than the
 * question. Each build runs on a database of its own (two commits may differ in schema), seeded
 * through its own API by its own bench/seed.js; then both are loaded in turns, a few seconds
 * each (A, B, then B, A, ...), so whatever the machine does meanwhile hits both alike. It reports
 * the median of each build's CPU time per request and req/s over the rounds, and B ÷ A.
 *
 *   npm run build && npx node dist/bench/compare.js <checkout A> <checkout B> [--rounds=6] [--seconds=3] [--pages] [--only=verify,heartbeat] [--node-a=<path>] [--node-b=<path>] [--env-a=...] [--env-b=...]
 *
 * A checkout is a repository root with `npm ci` and `npm run build` done (a second one: `git
 * worktree add --detach ../before <commit>`). `--pages`: a build that has the page world also
 * renders /developer and /me before the rounds (see docs/performance.md, "Pages and the API in one
 * process"). `--only`: the rounds load these scenarios alone (more rounds in the same time).
 * `--webhook-b`: build B's developer gets one webhook endpoint subscribed to insertion.created, on a
 * local receiver answering 200 (issue 31: insert-coin with and without a subscribed endpoint).
 * `--node-a`, `--node-b`: the Node binary each build runs on (default: the one running compare.js),
 * e.g. `--node-a=/usr/bin/node --node-b=node_modules/.bin/node` for Node 20 against 24.
 * `--keep`: the two databases are not dropped at the end (their names are logged).
 * `--env-a`, `--env-b`: environment variables for one build's service, `NAME=value,NAME=value`;
 * with the same checkout twice, one setting against another (issue 32: `. . --env-b=METRICS_TOKEN=...`,
 * metrics on against off).
 * Uses DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
interface Build {
  name: 'A' | 'B';
  /** `node --version` of the binary it runs on. */
  node: string;
  service: BenchService;
  scenarios: Record<Scenario, LoadOptions['next']>;
  /** What each round measured, per scenario. */
  samples: Record<Scenario, { cpu: number; rps: number; errors: number }[]>;
}

type Scenario = 'health' | 'heartbeat' | 'insert-coin' | 'board' | 'verify';
const SCENARIOS: readonly Scenario[] = ['health', 'heartbeat', 'insert-coin', 'board', 'verify'];

const log = (line: string) => process.stderr.write(`[compare] ${line}\n`);
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = option('only')?.split(',');
/** `--env-a`/`--env-b`: `NAME=value,NAME=value` for one build's service. */
const envOption = (name: Build['name']): Record<string, string> =>
  Object.fromEntries(
    (option(`env-${name.toLowerCase()}`) ?? '')
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The Node binary a build runs on, and its version (`node --version`), for the log and the report. */
function nodeFor(name: Build['name']): { path: string; version: string } {
  const given = option(`node-${name.toLowerCase()}`);
  const path = given ? resolve(given) : process.execPath;
  return { path, version: execFileSync(path, ['--version'], { encoding: 'utf8' }).trim() };
}

async function prepare(name: Build['name'], checkout: string, databaseUrl: string, pages: boolean): Promise<Build> {
  const node = nodeFor(name);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- each build seeds through its own API version
  const seed = require(resolve(checkout, 'dist/bench/seed.js')) as typeof Seed;
  // Seeding hashes passwords; the rounds measure a fresh process, as `npm run bench` does.
  // --webhook-b: B's developer has one endpoint subscribed to insertion.created, answering 200 on this machine.
  const webhook = name === 'B' && webhookReceiverUrl ? webhookReceiverUrl : undefined;
  const env = { ...benchServiceEnv(databaseUrl, seed.ADMIN), ...(webhook ? { WEBHOOK_ALLOW_PRIVATE: 'true' } : {}), ...envOption(name) };
  const seeding = await startBenchService(env, [], checkout, node.path);
  const world = await seed.seedWorld(seeding.url);
  if (webhook) await world.developer.post('/api/portal/webhooks', { url: webhook, events: ['insertion.created'] });
  const players = await seed.seedPlayers(seeding.url, world.admin, `${name.toLowerCase()}-player`, 40, 100_000);
  const sessions = await seed.openSessions(players, world.main, 3000);
  const insertionIds = await seed.insertOneCoinEach(await seed.openSessions(players, world.main, 200), seeding.url);
  const pageWorld = pages && typeof seed.seedPagesWorld === 'function' ? await seed.seedPagesWorld(seeding.url, world.admin) : undefined;
  await seeding.stop();
  const service = await startBenchService(env, [], checkout, node.path);
  const scenarios: Build['scenarios'] = {
    health: () => ({ method: 'GET', path: '/health/live' }),
    heartbeat: heartbeatRequests(sessions),
    'insert-coin': insertCoinRequests(sessions),
    board: () => ({ method: 'GET', path: `/api/games/${world.main.slug}/scores?period=all` }),
    verify: verifyRequests(insertionIds, world.liveKey),
  };
  const warmups: LoadOptions['next'][] = Object.values(scenarios);
  if (pageWorld) warmups.push(pageRequests('/developer', pageWorld.developer.cookie), pageRequests('/me', pageWorld.player.cookie));
  for (const next of warmups) await runLoad({ url: service.url, connections: 10, duration: 3, next, rssMb: service.rssMb });
  const extra = Object.keys(envOption(name));
  log(`${name}: ${checkout} on Node ${node.version} (${node.path}), ${sessions.length} play sessions${pageWorld ? ', pages rendered' : ''}${extra.length > 0 ? `, with ${extra.join(', ')} set` : ''}, pid ${service.pid}`);
  return { name, node: node.version, service, scenarios, samples: { health: [], heartbeat: [], 'insert-coin': [], board: [], verify: [] } };
}

/** `--webhook-b`: a local receiver answering 200 to every request, for build B's one webhook endpoint. */
let webhookReceiverUrl: string | undefined;
let webhookRequests = 0;

async function main(): Promise<void> {
  if (process.argv.includes('--webhook-b')) {
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        webhookRequests += 1;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiver.unref();
    webhookReceiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/bench-webhook`;
  }
  const [checkoutA, checkoutB] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!checkoutA || !checkoutB) throw new Error('usage: node dist/bench/compare.js <checkout A> <checkout B> [--rounds=6] [--seconds=3] [--pages] [--only=verify,heartbeat] [--node-a=<path>] [--node-b=<path>] [--env-a=NAME=value,...] [--env-b=NAME=value,...]');
  const rounds = arg('rounds', 6);
  const unknown = only?.filter((name) => !(SCENARIOS as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: no scenario ${unknown.join(', ')} (there are ${SCENARIOS.join(', ')})`);
  const scenarios = only ? SCENARIOS.filter((name) => only.includes(name)) : SCENARIOS;
  const seconds = arg('seconds', 3);
  log(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const server = await openBenchDatabase(log);
  const names = { A: `arcade_compare_a_${Date.now()}`, B: `arcade_compare_b_${Date.now()}` };
  const admin = new Client({ connectionString: withDatabase(server.url, 'postgres') });
  await admin.connect();
  const builds: Build[] = [];
  try {
    for (const name of ['A', 'B'] as const) {
      await admin.query(`CREATE DATABASE ${names[name]}`);
      builds.push(await prepare(name, resolve(name === 'A' ? checkoutA : checkoutB), withDatabase(server.url, names[name]), process.argv.includes('--pages')));
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const scenario of scenarios) {
        for (const build of order) {
          const m = await runLoad({ url: build.service.url, connections: 10, duration: seconds, next: build.scenarios[scenario], rssMb: build.service.rssMb, cpuSeconds: build.service.cpuSeconds });
          build.samples[scenario].push({ cpu: m.cpuMsPerRequest ?? NaN, rps: m.rps, errors: m.errors });
        }
      }
      log(`round ${round + 1} of ${rounds}`);
    }
    const lines = ['scenario      CPU ms/req A   B      B/A    req/s A   B      B/A    errors A/B'];
    for (const scenario of scenarios) {
      const [a, b] = [builds[0].samples[scenario], builds[1].samples[scenario]];
      const [cpuA, cpuB, rpsA, rpsB] = [median(a.map((r) => r.cpu)), median(b.map((r) => r.cpu)), median(a.map((r) => r.rps)), median(b.map((r) => r.rps))];
      const errors = `${a.reduce((n, r) => n + r.errors, 0)}/${b.reduce((n, r) => n + r.errors, 0)}`;
      lines.push(
        `${scenario.padEnd(13)} ${cpuA.toFixed(3).padStart(6)} ${cpuB.toFixed(3).padStart(6)} ${(cpuB / cpuA).toFixed(3).padStart(6)}   ${rpsA.toFixed(0).padStart(6)} ${rpsB.toFixed(0).padStart(6)} ${(rpsB / rpsA).toFixed(3).padStart(6)}   ${errors}`,
      );
    }
    if (webhookReceiverUrl) lines.push(`B's webhook endpoint received ${webhookRequests} deliveries`);
    process.stdout.write(
      `${lines.join('\n')}\n(median of ${rounds} rounds of ${seconds} s each, 10 connections; CPU: the service process's user + system time; A on Node ${builds[0].node}, B on Node ${builds[1].node}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})\n`,
    );
  } finally {
    for (const build of builds) await build.service.stop();
    // --keep: the two databases stay, for a look at what the rounds left (pg_stat_user_tables, a pgbench of their statements).
    if (process.argv.includes('--keep')) log(`kept databases ${Object.values(names).join(', ')}`);
    else for (const name of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await server.dispose();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
