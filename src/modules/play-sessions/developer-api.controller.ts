import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RateLimitedError } from '../../errors/app-error';
import { ApiErrors } from '../../http/error-responses';
import { ApiRateLimited } from '../rate-limits';
import { ApiKeyAuth, ApiKeyContext, CurrentApiKey } from '../developer-portal';
import { RateLimiter } from '../rate-limits';
import { InsertionIdParamsDto, PlaySessionIdParamsDto } from '../../http/params';
import { InsertionVerificationDto, PlaySessionSummaryDto } from './play-sessions.dto';
import { InsertionVerification, PlaySessionsService, PlaySessionSummary } from './play-sessions.service';

@ApiTags('developer')
@Controller('api/v1')
export class DeveloperApiController {
  constructor(
    private readonly sessions: PlaySessionsService,
    private readonly limits: RateLimiter,
  ) {}

  @Get('insertions/:insertionId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Verify a coin insertion', description: 'Live or test key. Only insertions of the developer\'s own games; `test_` ids are never stored.' })
  @ApiOkResponse({ type: InsertionVerificationDto })
  @ApiErrors({
    400: 'INVALID_REQUEST: id longer than 64 characters',
    404: 'NOT_FOUND with valid: false: unknown id, a test_ id, or another developer\'s insertion',
  })
  @ApiRateLimited('too many requests with this API key (`RATE_LIMIT_DEVELOPER_PER_KEY`, default 600 per 60 s)')
  async insertion(@CurrentApiKey() key: ApiKeyContext, @Param() params: InsertionIdParamsDto): Promise<InsertionVerification> {
    return this.limited(key, () => this.sessions.verifyInsertion(key.developerId, params.insertionId));
  }

  @Get('sessions/:id')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A play session summary with its insertions', description: 'Live or test key. Test-mode sessions of the developer\'s games too (no insertions).' })
  @ApiOkResponse({ type: PlaySessionSummaryDto })
  @ApiErrors({
    400: 'INVALID_REQUEST: id longer than 64 characters',
    404: 'NOT_FOUND: unknown id or another developer\'s game',
  })
  @ApiRateLimited('too many requests with this API key (`RATE_LIMIT_DEVELOPER_PER_KEY`, default 600 per 60 s)')
  async session(@CurrentApiKey() key: ApiKeyContext, @Param() params: PlaySessionIdParamsDto): Promise<PlaySessionSummary> {
    return this.limited(key, () => this.sessions.summary(key.developerId, params.id));
  }

  /** Every request counts toward the key's limit; a 404 still wins over 429 (CONTRACT §16.17). */
  private async limited<T>(key: ApiKeyContext, lookup: () => Promise<T>): Promise<T> {
    const limit = await this.limits.check({ throttler: 'developer-per-key', tracker: key.keyId });
    const answer = await lookup();
    if (!limit.allowed) throw new RateLimitedError(limit.retryAfterMs);
    return answer;
  }
}
