import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '../../errors/app-error';
import { Public } from '../../http/public.decorator';
import type { RateLimitCounters, RateLimitStorage } from '../rate-limits';

const READY_SCHEMA = {
  type: 'object',
  required: ['status', 'details'],
  properties: {
    status: { type: 'string', example: 'ok' },
    details: {
      type: 'object',
      required: ['database', 'rateLimits'],
      properties: {
        database: { type: 'string', enum: ['up'] },
        rateLimits: {
          type: 'string',
          enum: ['in-process', 'redis', 'in-process (Redis unreachable)'],
          description:
            'Where the rate-limit counters are: `redis` (shared by every instance), `in-process` (no REDIS_URL), or ' +
            '`in-process (Redis unreachable)`: REDIS_URL is set but Redis does not answer, each instance counts alone until it is back',
        },
      },
    },
  },
};

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @InjectThrottlerStorage() private readonly rateLimits: RateLimitStorage,
  ) {}

  @Get('live')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'The process is up' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'The database is reachable',
    description: 'Ready means the database answers. Redis is not required: without it the rate limits count in process (`details.rateLimits` says so).',
  })
  @ApiOkResponse({ schema: READY_SCHEMA })
  @ApiServiceUnavailableResponse({ description: 'The database is not reachable', schema: { $ref: '#/components/schemas/Error' } })
  async ready(): Promise<{ status: string; details: { database: 'up'; rateLimits: RateLimitCounters } }> {
    try {
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000).unref());
      await Promise.race([this.dataSource.query('SELECT 1'), timeout]);
    } catch {
      throw new ServiceUnavailableError('The database is not reachable.');
    }
    return { status: 'ok', details: { database: 'up', rateLimits: this.rateLimits.counters() } };
  }
}
