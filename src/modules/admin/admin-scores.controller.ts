import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { GameIdParamsDto, PAGE_LIMIT_DEFAULT } from '../../http/params';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { AdminAuth } from '../../http/account-auth';
import { AdminScoreView, ScoreModerationService } from '../scoring';
import { AdminScoresPageDto, AdminScoresQueryDto, RemovedScoreDto, RemoveScoreDto, ScoreIdParamsDto } from './admin.dto';

/** A game's saved scores and their removal from the boards (CONTRACT §18). */
@ApiTags('admin')
@Controller('api/admin')
export class AdminScoresController {
  constructor(private readonly moderation: ScoreModerationService) {}

  @Get('games/:gameId/scores')
  @AdminAuth()
  @ApiOperation({
    summary: 'A game\'s saved scores, best first',
    description: 'Every saved score of the period (all time, or this ISO week), removed ones included with `removedAt`; test-mode scores are never saved. Cursor paging: pass `nextCursor` as `cursor`.',
  })
  @ApiOkResponse({ type: AdminScoresPageDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a bad parameter, or an unreadable cursor', 404: 'NOT_FOUND: unknown game' })
  list(@Param() params: GameIdParamsDto, @Query() query: AdminScoresQueryDto): Promise<{ scores: AdminScoreView[]; nextCursor: string | null }> {
    return this.moderation.list(params.gameId, query.period ?? 'all', { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor });
  }

  @Post('scores/:scoreId/remove')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Take a score off every board',
    description:
      'Off the all-time and weekly boards at once (other instances within a second); the next best take its place. Its insertion stays paid and verifiable. ' +
      'Audited as `score.remove` with the reason. A repeat answers the first `removedAt` and records nothing.',
  })
  @ApiOkResponse({ type: RemovedScoreDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: reason missing or over 200 characters, or id over 64 characters', 404: 'NOT_FOUND: unknown score' })
  remove(@Actor() actor: AuditActor, @Param() params: ScoreIdParamsDto, @Body() body: RemoveScoreDto): Promise<{ scoreId: string; removedAt: Date }> {
    return this.moderation.removeByAdmin(actor, params.scoreId, body.reason);
  }
}
