import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { LeaderboardService } from './leaderboard.service';
import { SlugParamsDto } from '../../http/params';
import { LeaderboardDto, LeaderboardQueryDto } from './scoring.dto';

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
