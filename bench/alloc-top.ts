import { readFileSync } from 'node:fs';

/**
 * Summarises a sampling heap profile (bench/heap-probe.ts with --alloc-prof): the functions that
 * allocated the most bytes themselves, and the same grouped by package (or by src/ file).
 *   node dist/bench/alloc-top.js /tmp/arcade-bench-alloc/alloc-3.heapprofile [rows]
 */
interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

const [file, rowsArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: Node };
const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
let total = 0;
const placeOf = (url: string): string => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const src = /\/dist\/(src\/.*)$/.exec(url);
  return src ? src[1] : url.replace(/^node:/, 'node:') || '(native)';
};
const inclusive = new Map<string, number>();
const subtree = (node: Node, open: Set<string>): number => {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'} ${placeOf(url)}:${lineNumber + 1}`;
  const mine = url.includes('/dist/src/') && !open.has(key);
  if (mine) open.add(key);
  let size = node.selfSize;
  for (const child of node.children) size += subtree(child, open);
  if (mine) {
    open.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + size);
  }
  return size;
};
const walk = (node: Node): void => {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'} ${placeOf(url)}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  byPlace.set(placeOf(url), (byPlace.get(placeOf(url)) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
};
walk(profile.head);
subtree(profile.head, new Set());
const rows = Number(rowsArg ?? 30);
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (of ${(total / 1024).toFixed(0)} KB sampled)\n`);
  for (const [key, size] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    process.stdout.write(`${((100 * size) / total).toFixed(1).padStart(5)}%  ${key}\n`);
  }
};
show('by function', byFunction);
show('by package or file', byPlace);
show('the service functions, with everything they call', inclusive);
