import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { MAIN, ServiceProcess, startService } from '../support/process';

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const SERVER = 2;

/** A local OTLP/HTTP receiver (plain node:http): every span POSTed as JSON to /v1/traces. */
async function otlpReceiver(): Promise<{ url: string; spans: OtlpSpan[]; paths: string[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value.stringValue;

/**
 * Traces (CONTRACT §23): the built service in its own process (the instrumentations load before
 * the app, main.ts's second import), exporting to a local OTLP/HTTP receiver; a request's server
 * span arrives with its database statements as descendants, and its log line carries the trace id.
 */
describe('traces over OTLP', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let service: ServiceProcess;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm run test:scale builds it first');
    receiver = await otlpReceiver();
    service = await startService({
      DATABASE_URL: await createTestDatabase(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      LOG_LEVEL: 'info',
    });
  }, 120_000);

  afterAll(async () => {
    expect(await service?.stop('SIGTERM')).toBe(0);
    await receiver?.close();
  });

  it("exports a request's server span with its pg child spans, and the request's log line carries the trace id", async () => {
    const res = await fetch(`${service.url}/api/games?limit=5`, { headers: { 'X-Request-Id': 'traced-1' } });
    expect(res.status).toBe(200);
    const server = await eventually(
      async () => receiver.spans.find((s) => s.kind === SERVER && attribute(s, 'http.route') === '/api/games'),
      (span) => span !== undefined,
      { withinMs: 20_000 },
    );
    expect(server).toBeDefined();
    // Its descendants: express's middleware and handler spans, and under them the statements.
    const inTrace = await eventually(
      async () => receiver.spans.filter((s) => s.traceId === server!.traceId),
      (spans) => spans.some((s) => s.name.startsWith('pg.query')),
      { withinMs: 10_000 },
    );
    const byId = new Map(inTrace.map((s) => [s.spanId, s]));
    const queries = inTrace.filter((s) => s.name.startsWith('pg.query'));
    expect(queries.length).toBeGreaterThanOrEqual(1);
    for (const query of queries) {
      let span: OtlpSpan | undefined = query;
      while (span && span.spanId !== server!.spanId) span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      expect([query.name, span?.spanId]).toEqual([query.name, server!.spanId]);
    }
    // Health checks are not traced.
    await fetch(`${service.url}/health/live`);

    const line = await eventually(
      async () => service.output().split('\n').filter((l) => l.includes('"reqId":"traced-1"')),
      (lines) => lines.length > 0,
    );
    expect(JSON.parse(line[0]!)).toMatchObject({ reqId: 'traced-1', trace_id: server!.traceId, msg: 'request completed' });
    expect(receiver.spans.some((s) => attribute(s, 'url.path') === '/health/live' || attribute(s, 'http.target') === '/health/live')).toBe(false);
    expect(receiver.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
  });

  it('loads nothing of OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is unset', () => {
    const script = `require(${JSON.stringify(resolve(MAIN, '../tracing.js'))}); process.stdout.write(String(Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length));`;
    const env = { PATH: process.env.PATH ?? '' };
    expect(execFileSync(process.execPath, ['-e', script], { env }).toString()).toBe('0');
    expect(Number(execFileSync(process.execPath, ['-e', script], { env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } }).toString())).toBeGreaterThan(10);
  });
});
