/**
 * Traces over OTLP (CONTRACT §23), loaded before anything else in main.ts (after the thread pool's
 * size): the instrumentations patch `http`, `express` and `pg` as they are first required, so they
 * must be in place before the app's modules load. Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is
 * required or constructed: no patching, no exporter, no cost (an SDK constructed with no endpoint
 * would still patch the modules and send to localhost:4318).
 *
 * Spans are exported as OTLP/HTTP JSON to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces` (the SDK's
 * standard OTEL_* variables apply: OTEL_SERVICE_NAME, OTEL_BSP_SCHEDULE_DELAY...); OpenTelemetry's
 * own metrics and logs export stay off: Prometheus scrapes /metrics.
 */
import { tracing } from './observability/tracing-hooks';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) {
  /* eslint-disable @typescript-eslint/no-require-imports -- required only inside the guard, see above */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  /* eslint-enable @typescript-eslint/no-require-imports */
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // No cloud metadata probes (they time out on a closed network).
  process.env.OTEL_NODE_RESOURCE_DETECTORS ??= 'env,host,os,process';
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'arcade-coin-service',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      // Health checks and scrapes are not traced: they would be most of the spans.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/metrics' || (req.url ?? '').startsWith('/health/') }),
      new ExpressInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  tracing.traceId = () => {
    const span = api.trace.getActiveSpan();
    return span?.spanContext().traceId;
  };
  tracing.shutdown = () => sdk.shutdown();
}
