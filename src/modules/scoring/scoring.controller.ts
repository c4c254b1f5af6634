import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { PlaySessionIdParamsDto } from '../../http/params';
import { CurrentPlayer, KeptLoginPlayer, PlayerAuth, PlayerContext } from '../../http/account-auth';
import { ApiRateLimited } from '../rate-limits';
import { ScoreInitialsService } from './score-initials.service';
import {
  InitialsResultDto,
  MyScoresQueryDto,
  PendingScoresDto,
  SaveInitialsDto,
  ScoreResultDto,
  SubmitScoreDto,
} from './scoring.dto';
import { SubmitScoreService } from './submit-score.service';

@ApiTags('scores')
@Controller('api/play/sessions/:id/score')
export class ScoringController {
  constructor(private readonly submitScore: SubmitScoreService, private readonly initials: ScoreInitialsService) {}

  @Post()
  @PlayerAuth({ sessionCheckedByStatement: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit a player score',
    description:
      "Binds the score to the play session's latest insertion (one score per insertion). Idempotent per `idempotencyKey`: " +
      'a retry returns the original result with `replayed: true`. Test-mode sessions need no coin and save nothing.',
  })
  @ApiOkResponse({ type: ScoreResultDto, description: 'The score submission result (spec §2.5); `replayed: true` for a retry' })
  @ApiErrors({
    400: 'INVALID_REQUEST: score not an integer in 0-9007199254740991, or a bad idempotencyKey or id',
    404: 'SESSION_NOT_FOUND: unknown play session or another player\'s',
    409: 'COIN_REQUIRED (no insertion in the session), INSERTION_VOIDED (an admin voided its latest insertion; checked before INSERTION_ALREADY_SCORED), INSERTION_ALREADY_SCORED (the latest insertion has a score) or IDEMPOTENCY_KEY_CONFLICT',
    410: 'SESSION_EXPIRED: the play session ended or timed out',
    422: "SCORE_OUT_OF_RANGE: above the game's maxScore",
  })
  @ApiRateLimited(
    'per play session (`RATE_LIMIT_SCORE_PER_SESSION`, default 30 per 60 s) and per player (`RATE_LIMIT_SCORE_PER_PLAYER`, ' +
      'default 120 per 60 s), counted after every other check; a replay is never limited',
  )
  submit(@CurrentPlayer() player: KeptLoginPlayer, @Param() params: PlaySessionIdParamsDto, @Body() body: SubmitScoreDto): Promise<ScoreResultDto> {
    return this.submitScore.submitPlayerScore(player, params.id, body);
  }

  @Post('initials')
  @PlayerAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Save high-score initials',
    description:
      "Sets the initials of the caller's own score saved in this play session (also after the session ended) and saves them " +
      'as the player\'s preference: every score saved from then on takes them at once. Earlier scores keep what they had.',
  })
  @ApiOkResponse({ type: InitialsResultDto, description: 'Saved on the score and as the player\'s preference' })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    404: "SCORE_NOT_FOUND: no such score of the caller's in this play session",
  })
  @ApiRateLimited('per player (`RATE_LIMIT_INITIALS_PER_PLAYER`, default 30 per 60 s)')
  saveInitials(@CurrentPlayer() player: PlayerContext, @Param() params: PlaySessionIdParamsDto, @Body() body: SaveInitialsDto): Promise<InitialsResultDto> {
    return this.initials.saveInitials(player.playerId, params.id, body.scoreId, body.initials);
  }
}

@ApiTags('scores')
@Controller('api/me/scores')
export class MyScoresController {
  constructor(private readonly initials: ScoreInitialsService) {}

  @Get()
  @PlayerAuth()
  @ApiOperation({
    summary: 'My saved scores that still need initials',
    description:
      'With `pendingInitials=true`: the saved scores whose result said `needsInitials: true` and that have no initials yet ' +
      '(player or trusted), newest first, so the host page can ask for initials after a trusted score too.',
  })
  @ApiOkResponse({ type: PendingScoresDto, description: 'Saved scores still waiting for initials, newest first' })
  @ApiErrors({ 400: 'INVALID_REQUEST: pendingInitials must be `true`' })
  async pending(@CurrentPlayer() player: PlayerContext, @Query() _query: MyScoresQueryDto): Promise<PendingScoresDto> {
    return { scores: await this.initials.pending(player.playerId) };
  }
}
