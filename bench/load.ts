import autocannon from 'autocannon';

/** What one scenario measured. Latencies in milliseconds, RSS in MB. */
export interface Measurement {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, socket errors and timeouts. */
  errors: number;
  /** Status codes of the non-2xx answers, e.g. { "429": 3 }. */
  statuses: Record<string, number>;
  rssMaxMb: number;
  /** Server CPU time per request (user + system), in ms: steadier than req/s when other jobs share the machine. */
  cpuMsPerRequest?: number;
  /** Bytes the server allocated on V8's heap per request (bench/heap-probe.ts). */
  allocatedBytesPerRequest?: number;
  /** Garbage collections in the server while measured, and their time. */
  gcs?: number;
  gcMs?: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; or `amount` for a fixed number of requests. */
  duration?: number;
  amount?: number;
  warmupSeconds?: number;
  /** Builds each request: path, method, headers and body. */
  next: () => { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
  /** Sampled while the load runs. */
  rssMb: () => number;
  /** The server's CPU seconds so far. */
  cpuSeconds?: () => number;
  /** Counts the server's heap allocation over the measured part (not the warm-up). */
  heapCount?: { start: () => Promise<void>; stop: () => Promise<{ allocatedBytes: number; gcs: number; gcMs: number }> };
}

/** Samples `read` every 100 ms until stopped; returns the maximum seen. */
export function sampleMax(read: () => number): () => number {
  let max = read();
  const timer = setInterval(() => (max = Math.max(max, read())), 100);
  return () => {
    clearInterval(timer);
    return Math.max(max, read());
  };
}

type CannonResult = autocannon.Result & { statusCodeStats?: Record<string, { count: number }> };

/** One autocannon load; `lastAnswer` is when the last response arrived (process.hrtime.bigint()). */
async function cannon(options: LoadOptions, limit: { duration?: number; amount?: number }): Promise<{ result: CannonResult; lastAnswer: bigint | undefined }> {
  let lastAnswer: bigint | undefined;
  const result = (await autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(limit.amount !== undefined ? { amount: limit.amount } : { duration: limit.duration }),
    requests: [
      {
        setupRequest: (req) => {
          const r = options.next();
          return { ...req, method: r.method, path: r.path, headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers }, body: r.body };
        },
        onResponse: () => {
          lastAnswer = process.hrtime.bigint();
        },
      },
    ],
  })) as CannonResult;
  return { result, lastAnswer };
}

/** Runs an optional warm-up (not measured), then the measured load, sampling the server's RSS. */
export async function runLoad(options: LoadOptions): Promise<Measurement> {
  if (options.warmupSeconds) await cannon(options, { duration: options.warmupSeconds });
  await options.heapCount?.start();
  const stopSampling = sampleMax(options.rssMb);
  const cpuBefore = options.cpuSeconds?.();
  const started = process.hrtime.bigint();
  const { result, lastAnswer } = await cannon(options, { duration: options.duration, amount: options.amount });
  const seconds = Number((lastAnswer ?? process.hrtime.bigint()) - started) / 1e9;
  const heap = await options.heapCount?.stop();
  const rssMaxMb = stopSampling();
  const cpu = cpuBefore === undefined ? undefined : options.cpuSeconds!() - cpuBefore;
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    if (!code.startsWith('2')) statuses[code] = stat.count ?? 0;
  }
  const requests = result.requests.total;
  // autocannon's own window excludes its start-up but is counted in whole seconds: right for a
  // duration, not for `amount`, timed here from the start to the last answer (autocannon itself
  // resolves on its next one-second tick after it: 4,000 answers in 3.3 s read as 4 s, 999 req/s).
  const window = options.amount === undefined ? result.duration || seconds : seconds;
  return {
    requests,
    seconds: window,
    rps: requests / window,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    statuses,
    rssMaxMb,
    cpuMsPerRequest: cpu === undefined || requests === 0 ? undefined : (cpu * 1000) / requests,
    allocatedBytesPerRequest: heap === undefined || requests === 0 ? undefined : heap.allocatedBytes / requests,
    gcs: heap?.gcs,
    gcMs: heap?.gcMs,
  };
}
