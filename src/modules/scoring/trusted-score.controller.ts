import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { ApiKeyAuth, ApiKeyContext, CurrentApiKey } from '../developer-portal';
import { ApiRateLimited } from '../rate-limits';
import { InsertionIdParamsDto } from '../../http/params';
import { ScoreResultDto, SubmitScoreDto } from './scoring.dto';
import { SubmitScoreService } from './submit-score.service';

@ApiTags('developer')
@Controller('api/v1/insertions/:insertionId/score')
export class TrustedScoreController {
  constructor(private readonly submitScore: SubmitScoreService) {}

  @Post()
  @ApiKeyAuth({ live: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit a trusted, server-verified score',
    description:
      'Requires a live key. Binds the score to a paid insertion of one of your games (one score per insertion); it shows on ' +
      'the board as `verified: true`. `achievedAt` is the time of submission. Idempotent per `idempotencyKey` (per developer).',
  })
  @ApiOkResponse({ type: ScoreResultDto, description: 'The score submission result (spec §2.5); `replayed: true` for a retry' })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    404: "NOT_FOUND: unknown insertion, a test-mode (test_...) id, or another developer's",
    409: 'INSERTION_VOIDED (an admin voided the insertion; checked before INSERTION_ALREADY_SCORED), INSERTION_ALREADY_SCORED or IDEMPOTENCY_KEY_CONFLICT',
    422: "SCORE_OUT_OF_RANGE: above the game's maxScore",
  })
  @ApiRateLimited('too many requests with this API key (`RATE_LIMIT_DEVELOPER_PER_KEY`, default 600 per 60 s); a replay is never limited')
  submit(@CurrentApiKey() apiKey: ApiKeyContext, @Param() params: InsertionIdParamsDto, @Body() body: SubmitScoreDto): Promise<ScoreResultDto> {
    return this.submitScore.submitTrustedScore(apiKey, params.insertionId, body);
  }
}
