import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { CurrentPlayer, PlayerAuth, PlayerContext } from '../../http/account-auth';
import { Public } from '../../http/public.decorator';
import { LeaderboardService } from './leaderboard.service';
import { SlugParamsDto } from '../../http/params';
import { LeaderboardDto, LeaderboardQueryDto, MyBestDto } from './scoring.dto';

@ApiTags('scores')
@Controller('api/games/:slug/scores')
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Public leaderboard: top ten of a published game',
    description:
      'Saved scores that have initials, player-reported and trusted alike, by score descending, then earlier achievedAt. ' +
      '`period=week` keeps scores achieved since Monday 00:00 UTC of the current ISO week. A new score shows within one second.',
  })
  @ApiOkResponse({ type: LeaderboardDto, description: 'At most ten entries, ranks 1-10' })
  @ApiErrors({ 400: 'INVALID_REQUEST: bad slug or period', 404: 'NOT_FOUND: no published game with this slug' })
  board(@Param() params: SlugParamsDto, @Query() query: LeaderboardQueryDto): Promise<LeaderboardDto> {
    return this.leaderboard.board(params.slug, query.period ?? 'all');
  }
}

@ApiTags('scores')
@Controller('api/games/:slug/leaderboard')
export class MyBestController {
  constructor(private readonly leaderboard: LeaderboardService) {}

  @Get('me')
  @PlayerAuth()
  @ApiOperation({
    summary: 'Your best: the caller\'s best score of a published game and its rank, beyond the top ten too',
    description:
      "The caller's best saved score of the period (removed ones excluded) and `rank`, its place among all saved scores with " +
      'initials of that period, ties by earlier achievedAt (no shared ranks). A best that has no initials yet is not on the ' +
      'board: `initials` is null and `rank` the place it would take. `best` is null when the caller has no saved score. ' +
      '`period=week` keeps scores achieved since Monday 00:00 UTC of the current ISO week. Never cached: a new score shows at once.',
  })
  @ApiOkResponse({ type: MyBestDto, description: "The caller's best of the period, or `best: null`" })
  @ApiErrors({ 400: 'INVALID_REQUEST: bad slug or period', 404: 'NOT_FOUND: no published game with this slug' })
  best(@CurrentPlayer() player: PlayerContext, @Param() params: SlugParamsDto, @Query() query: LeaderboardQueryDto): Promise<MyBestDto> {
    return this.leaderboard.best(params.slug, query.period ?? 'all', player.playerId);
  }
}
