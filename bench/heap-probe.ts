import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { resolve } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

/**
 * Loaded into the bench's service process with `--require` (never in production): counts the bytes
 * the process allocates on V8's heap between two SIGWINCH signals. V8 keeps no running total, so
 * the count is rebuilt from each garbage collection's heap size before and after (GCProfiler):
 * allocated = Σ (used before GC i − used after GC i−1) + (used at the end − used after the last GC).
 * The answer goes to stderr as one line: `heap-probe {"allocatedBytes":…,"gcs":…,"gcMs":…}`.
 */
let running: { profiler: GCProfiler; usedAtStart: number } | undefined;

/**
 * With ARCADE_BENCH_ALLOC_PROFILE=<dir> (`npm run bench -- --alloc-prof`), each count also records
 * V8's sampling heap profile of every allocation, collected or not, as <dir>/alloc-<n>.heapprofile
 * (open it in Chrome DevTools' Memory tab, or summarise it with `node dist/bench/alloc-top.js <file>`).
 */
const profileDir = process.env.ARCADE_BENCH_ALLOC_PROFILE;
const session = profileDir ? new Session() : undefined;
session?.connect();
let profiles = 0;

process.on('SIGWINCH', () => {
  if (!running) {
    const profiler = new GCProfiler();
    profiler.start();
    running = { profiler, usedAtStart: getHeapStatistics().used_heap_size };
    session?.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    process.stderr.write('heap-probe started\n');
    return;
  }
  session?.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(resolve(profileDir!, `alloc-${++profiles}.heapprofile`), JSON.stringify(result.profile));
  });
  const usedAtEnd = getHeapStatistics().used_heap_size;
  const statistics = running.profiler.stop()?.statistics ?? [];
  let allocated = 0;
  let previous = running.usedAtStart;
  let gcMicroseconds = 0;
  for (const gc of statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - previous;
    previous = gc.afterGC.heapStatistics.usedHeapSize;
    gcMicroseconds += gc.cost;
  }
  allocated += usedAtEnd - previous;
  running = undefined;
  process.stderr.write(`heap-probe ${JSON.stringify({ allocatedBytes: allocated, gcs: statistics.length, gcMs: Math.round(gcMicroseconds / 1000) })}\n`);
});
