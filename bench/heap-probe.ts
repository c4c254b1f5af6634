import { GCProfiler, getHeapStatistics } from 'node:v8';

/**
 * Loaded into the bench's service process with `--require` (never in production): counts the bytes
 * the process allocates on V8's heap between two SIGWINCH signals. V8 keeps no running total, so
 * the count is rebuilt from each garbage collection's heap size before and after (GCProfiler):
 * allocated = Σ (used before GC i − used after GC i−1) + (used at the end − used after the last GC).
 * The answer goes to stderr as one line: `heap-probe {"allocatedBytes":…,"gcs":…,"gcMs":…}`.
 */
let running: { profiler: GCProfiler; usedAtStart: number } | undefined;

process.on('SIGWINCH', () => {
  if (!running) {
    const profiler = new GCProfiler();
    profiler.start();
    running = { profiler, usedAtStart: getHeapStatistics().used_heap_size };
    process.stderr.write('heap-probe started\n');
    return;
  }
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
