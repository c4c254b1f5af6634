import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CONFIG, Config } from '../../config';
import { NotFoundError, UnauthenticatedError } from '../../errors/app-error';
import { ApiErrors } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { Metrics } from '../../observability/metrics';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** GET /metrics (CONTRACT §23): the Prometheus text exposition, for the bearer of METRICS_TOKEN only. */
@ApiTags('operations')
@Controller()
export class MetricsController {
  /** The token's SHA-256: compared in constant time with the presented token's (equal lengths whatever was sent). */
  private readonly expected: Buffer | undefined;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly metrics: Metrics,
  ) {
    this.expected = config.observability.metricsToken === undefined ? undefined : digest(config.observability.metricsToken);
  }

  @Get('metrics')
  @Public()
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition of this instance (docs/operations.md, "Metrics"): HTTP request durations by route template, the database pool, ' +
      'the Node.js process, and the business counters (`arcade_*`). Only with `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN set, 404.',
  })
  @ApiHeader({ name: 'Authorization', required: true, description: '`Bearer <METRICS_TOKEN>`' })
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrors({ 401: 'UNAUTHENTICATED: no bearer token, or not METRICS_TOKEN', 404: 'NOT_FOUND: metrics are off (METRICS_TOKEN is not set)' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (!this.expected || !this.metrics.registry) throw new NotFoundError('No such resource.');
    const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), this.expected)) throw new UnauthenticatedError('A valid metrics token is required.', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    return this.metrics.registry.metrics();
  }
}
