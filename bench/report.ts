import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Measurement } from './load';

export interface Row {
  id: string;
  label: string;
  section: 'baseline' | 'scenario' | 'pages' | 'ledger growth' | 'board growth';
  measurement: Measurement;
  /** Row id this one is compared with, and the ratio rps / baseline rps. */
  baseline?: string;
  /** The baseline's req/s measured right before this row (or its first measurement). */
  baselineRps?: number;
  ratio?: number;
  /** Baseline's server CPU per request / this row's: the throughput ratio a CPU-bound server would reach. */
  cpuRatio?: number;
  target?: { text: string; met: boolean };
  note?: string;
  /** Round trips to PostgreSQL per request of this row's path (the census, queries.ts). */
  roundTrips?: number;
}

export interface Report {
  startedAt: string;
  mode: 'quick' | 'full';
  machine: Record<string, string | number>;
  parameters: Record<string, number | string>;
  rows: Row[];
  /** Round trips to PostgreSQL per request, by scenario. */
  queries?: Record<string, number>;
  /** The statements one request of each path sent, in order. */
  statements?: Record<string, string[]>;
  extras: Record<string, unknown>;
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-');

function cells(row: Row): string[] {
  const m = row.measurement;
  const errors = m.errors === 0 ? '0' : `${m.errors} (${Object.entries(m.statuses).map(([c, n]) => `${c}×${n}`).join(', ') || 'socket'})`;
  return [
    row.label,
    fmt(m.rps),
    fmt(m.p50, 1),
    fmt(m.p99, 1),
    errors,
    fmt(m.rssMaxMb),
    m.cpuMsPerRequest === undefined ? '' : fmt(m.cpuMsPerRequest, 3),
    m.allocatedBytesPerRequest === undefined ? '' : fmt(m.allocatedBytesPerRequest / 1024, 1),
    row.roundTrips === undefined ? '' : fmt(row.roundTrips, 1),
    row.baseline ? `${row.baseline} ${fmt(row.baselineRps ?? NaN)}` : '',
    row.ratio === undefined ? '' : fmt(row.ratio, 2),
    row.cpuRatio === undefined ? '' : fmt(row.cpuRatio, 2),
    row.target ? `${row.target.met ? 'met' : 'MISSED'} (${row.target.text})` : '',
  ];
}

const HEAD = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'RSS MB', 'CPU ms/req', 'alloc KB/req', 'round trips', 'vs (req/s)', 'ratio', 'CPU ratio', 'target'];

export function textTable(report: Report): string {
  const rows = [HEAD, ...report.rows.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 || i === 9 || i === 12 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const out: string[] = [];
  let section = '';
  out.push(line(HEAD));
  for (const row of report.rows) {
    if (row.section !== section) {
      section = row.section;
      out.push(`-- ${section}`);
    }
    out.push(line(cells(row)));
  }
  return out.join('\n');
}

export function markdown(report: Report): string {
  const out: string[] = [];
  out.push(`Run ${report.startedAt}, mode \`${report.mode}\`.`, '');
  out.push(`Machine: ${Object.entries(report.machine).map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
  out.push(`Parameters: ${Object.entries(report.parameters).map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
  out.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map((_, i) => (i >= 1 && i <= 8 ? '---:' : '---')).join('|')}|`);
  let section = '';
  for (const row of report.rows) {
    if (row.section !== section) {
      section = row.section;
      out.push(`| **${section}** |${' |'.repeat(HEAD.length - 1)}`);
    }
    out.push(`| ${cells(row).join(' | ')} |`);
  }
  if (report.queries) {
    out.push('', '| path | round trips to PostgreSQL per request |', '|---|---:|');
    for (const [k, v] of Object.entries(report.queries)) out.push(`| ${k} | ${fmt(v, 1)} |`);
  }
  if (report.statements) {
    out.push('', 'Statements of one request, in order:', '');
    for (const [k, list] of Object.entries(report.statements)) {
      out.push(`- ${k}:${list.length ? '' : ' none'}`);
      for (const sql of list) out.push(`  1. \`${sql.replace(/`/g, "'")}\``);
    }
  }
  const extras = Object.entries(report.extras);
  if (extras.length) {
    out.push('');
    for (const [k, v] of extras) out.push(`- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return out.join('\n') + '\n';
}

export async function writeReport(report: Report, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = resolve(dir, 'latest.json');
  const md = resolve(dir, 'latest.md');
  await writeFile(json, JSON.stringify(report, null, 2) + '\n');
  await writeFile(md, markdown(report));
  return [json, md];
}
