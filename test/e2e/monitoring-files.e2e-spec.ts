import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTestApp, TestApp } from '../support/app';
import { familyNames } from '../support/metrics';

const DOCKER = resolve(__dirname, '../../docker');
const TOKEN = 'metrics-token-for-the-tests-0123';

/** PromQL words that are not metric names: functions, aggregations, modifiers. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset']);

/** The metric names a PromQL expression reads: label matchers, grouping labels, ranges, strings and function names taken away. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?/g)) {
    if (match[2] || PROMQL_WORDS.has(match[1]!) || /^\d/.test(match[1]!)) continue;
    names.add(match[1]!);
  }
  return [...names];
}

/** Every `expr` of a Prometheus rules file (inline, or a `|` block indented below it). */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const exprs: string[] = [];
  lines.forEach((line, i) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) return;
    if (match[2] !== '|') {
      exprs.push(match[2]!);
      return;
    }
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j]!.trim() === '' || lines[j]!.search(/\S/) > match[1]!.length); j++) block.push(lines[j]!);
    exprs.push(block.join('\n'));
  });
  return exprs;
}

/** A sample name's family: a histogram's `_bucket`, `_sum` and `_count` belong to it. */
function exposes(families: ReadonlySet<string>, name: string): boolean {
  return families.has(name) || ['_bucket', '_sum', '_count'].some((suffix) => name.endsWith(suffix) && families.has(name.slice(0, -suffix.length)));
}

/** docker/: the Grafana dashboard and the alert rules read only series a live /metrics answer has (CONTRACT §23). */
describe('the monitoring files in docker/', () => {
  let t: TestApp;
  let families: Set<string>;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    await t.http().get('/health/live').expect(200);
    families = familyNames((await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text);
  });
  afterAll(() => t.close());

  it('reads the expressions out of a query (the helper itself)', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, http_route) (rate(a_bucket{http_route=~"x|y"}[5m]))) > 0.25')).toEqual(['a_bucket']);
    expect(metricNames('sum(rate(b_total[$__rate_interval])) / max by (instance) (c)')).toEqual(['b_total', 'c']);
    expect(exposes(new Set(['h_seconds']), 'h_seconds_bucket')).toBe(true);
    expect(exposes(new Set(['h_seconds']), 'nope_total')).toBe(false);
  });

  it('the Grafana dashboard queries only metrics /metrics has, and every §23 business series is on it', () => {
    const dashboard = JSON.parse(readFileSync(resolve(DOCKER, 'grafana/arcade-dashboard.json'), 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
    const queried = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricNames(target.expr))));
    expect(queried.size).toBeGreaterThan(10);
    for (const name of queried) expect([name, exposes(families, name)]).toEqual([name, true]);
    for (const name of ['arcade_insertions_total', 'arcade_coins_spent_total', 'arcade_purchases_total', 'arcade_webhook_deliveries_total', 'arcade_webhook_oldest_pending_seconds', 'arcade_payouts_total', 'arcade_invariant_check_ok', 'db_client_connections_pending_requests']) {
      expect([name, queried.has(name)]).toEqual([name, true]);
    }
  });

  it('the alert rules read only metrics /metrics has', () => {
    const exprs = ruleExpressions(readFileSync(resolve(DOCKER, 'prometheus/alerts.yml'), 'utf8'));
    expect(exprs).toHaveLength(6);
    for (const name of new Set(exprs.flatMap(metricNames))) expect([name, exposes(families, name)]).toEqual([name, true]);
  });
});
