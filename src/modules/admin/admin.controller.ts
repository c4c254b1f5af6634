import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { GameIdParamsDto, PAGE_LIMIT_DEFAULT, VersionIdParamsDto } from '../../http/params';
import { GameDto, RejectVersionDto, VersionDto } from '../developer-portal';
import { AdminGameView, GamesService, GameView, ReviewView, VersionView } from '../developer-portal';
import { AdminAuth } from '../../http/account-auth';
import { AdminGamesPageDto, AdminGamesQueryDto, AdminVersionsQueryDto, ReviewPageDto, SuspendGameDto } from './admin.dto';

const UNREADABLE_CURSOR = 'INVALID_REQUEST: a bad parameter, or an unreadable cursor';

/** Review of versions and moderation of games (CONTRACT §4, §18). */
@ApiTags('admin')
@Controller('api/admin')
export class AdminController {
  constructor(private readonly games: GamesService) {}

  @Get('versions')
  @AdminAuth()
  @ApiOperation({
    summary: 'Versions by review status',
    description: 'pending (the default) oldest first: the review queue; approved and rejected newest first. Cursor paging: pass `nextCursor` as `cursor`.',
  })
  @ApiOkResponse({ type: ReviewPageDto })
  @ApiErrors({ 400: UNREADABLE_CURSOR })
  versions(@Query() query: AdminVersionsQueryDto): Promise<{ versions: ReviewView[]; nextCursor: string | null }> {
    return this.games.reviewList(query.status ?? 'pending', { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor });
  }

  @Post('versions/:versionId/approve')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a version: the developer may publish it', description: 'Audited as `version.approve`; approving an approved version changes nothing.' })
  @ApiOkResponse({ type: VersionDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown version' })
  approve(@Actor() actor: AuditActor, @Param() params: VersionIdParamsDto): Promise<VersionView> {
    return this.games.reviewVersion(actor, params.versionId, 'approved');
  }

  @Post('versions/:versionId/reject')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a version, with an optional reason', description: 'Audited as `version.reject` with the reason; the same rejection again changes nothing.' })
  @ApiOkResponse({ type: VersionDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: 'NOT_FOUND: unknown version' })
  reject(@Actor() actor: AuditActor, @Param() params: VersionIdParamsDto, @Body() body: RejectVersionDto): Promise<VersionView> {
    return this.games.reviewVersion(actor, params.versionId, 'rejected', body.reason || null);
  }

  @Get('games')
  @AdminAuth()
  @ApiOperation({
    summary: 'Every developer\'s games, newest first',
    description: '`query` finds games whose slug or title contains it (any case); `status` keeps one status. Cursor paging: pass `nextCursor` as `cursor`.',
  })
  @ApiOkResponse({ type: AdminGamesPageDto })
  @ApiErrors({ 400: UNREADABLE_CURSOR })
  list(@Query() query: AdminGamesQueryDto): Promise<{ games: AdminGameView[]; nextCursor: string | null }> {
    return this.games.adminList({ query: query.query, status: query.status }, { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor });
  }

  @Post('games/:gameId/suspend')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Suspend a game: nobody but admins can play it, and its developer cannot publish it',
    description: 'Audited as `game.suspend`, with the optional `reason`; suspending a suspended game changes nothing.',
  })
  @ApiBody({ type: SuspendGameDto, required: false })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a reason that is not 1 to 200 characters, or id over 64 characters', 404: 'NOT_FOUND: unknown game' })
  suspend(@Actor() actor: AuditActor, @Param() params: GameIdParamsDto, @Body() body: SuspendGameDto): Promise<GameView> {
    return this.games.suspend(actor, params.gameId, body?.reason ?? null);
  }

  @Post('games/:gameId/unsuspend')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Lift a suspension: the game returns to unpublished', description: 'Audited as `game.unsuspend`.' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown game' })
  unsuspend(@Actor() actor: AuditActor, @Param() params: GameIdParamsDto): Promise<GameView> {
    return this.games.unsuspend(actor, params.gameId);
  }
}
