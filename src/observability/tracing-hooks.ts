/**
 * What the tracing preload (src/tracing.ts) hands the app when OTEL_EXPORTER_OTLP_ENDPOINT is set:
 * the active trace's id for log lines, and the flush on shutdown. Both stay undefined otherwise,
 * so the app never loads OpenTelemetry itself. A module of its own (nothing else in it), so the
 * preload can fill it in before the app's modules load.
 */
export const tracing: {
  /** The trace id of the span active now (the request's server span), if any. */
  traceId?: () => string | undefined;
  /** Exports the spans still batched and stops the SDK. */
  shutdown?: () => Promise<void>;
} = {};
