import type { Request, Response } from 'express';
import type { Histogram } from 'prom-client';
import { HTTP_METHODS, HttpLabels } from './metrics';

/**
 * http_server_request_duration_seconds: one `observe` per request when it ends, labelled with the
 * route template express matched (`req.route.path`, e.g. `/api/play/sessions/:id/insert-coin`:
 * never the raw path, so the label set is as small as the route table), or `unmatched`. Called by
 * the request's lifecycle middleware (src/http/logging.ts, installed first, so the duration covers
 * every middleware), and only when metrics are on (METRICS_TOKEN).
 */
export function httpDurationRecorder(histogram: Histogram<HttpLabels>) {
  return (req: Request, res: Response, seconds: number): void => {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    histogram.observe(
      {
        http_request_method: HTTP_METHODS.has(req.method) ? req.method : '_OTHER',
        http_route: typeof route === 'string' ? route : 'unmatched',
        http_response_status_code: res.statusCode,
      },
      seconds,
    );
  };
}
