import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { CurrentPlayer, PlayerAuth, PlayerContext } from '../../http/account-auth';
import { PlaySessionIdParamsDto } from '../../http/params';
import { UnlockAchievementDto, UnlockResultDto } from './achievements.dto';
import { UnlockAchievementService } from './unlock-achievement.service';

@ApiTags('achievements')
@Controller('api/v1/sessions/:id/achievements')
export class AchievementsController {
  constructor(private readonly unlocks: UnlockAchievementService) {}

  @Post()
  @PlayerAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Unlock an achievement (player endpoint, cookie auth)',
    description:
      'Called by the host page for the player of an active play session. The first unlock stores `unlockedAt`, adds 25 XP ' +
      'and returns `rewards` (the achievement, plus a `level-up` item when the arcade level rises); a repeat returns the ' +
      'original unlock with `newlyUnlocked: false` and no rewards. Test-mode sessions store nothing and add no XP.',
  })
  @ApiOkResponse({ type: UnlockResultDto, description: 'The unlock (first or repeat), or the celebration alone in test mode' })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    404: "SESSION_NOT_FOUND (unknown play session or another player's), GAME_UNAVAILABLE (the game was unpublished or suspended) or ACHIEVEMENT_NOT_FOUND (unknown or retired key)",
    410: 'SESSION_EXPIRED: the play session ended or timed out',
  })
  unlock(@CurrentPlayer() player: PlayerContext, @Param() params: PlaySessionIdParamsDto, @Body() body: UnlockAchievementDto): Promise<UnlockResultDto> {
    return this.unlocks.unlock(player, params.id, body.key);
  }
}
