import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { GameIdParamsDto, UserIdParamsDto, VersionIdParamsDto } from '../../http/params';
import { GameDto, RejectVersionDto, VersionDto } from '../developer-portal/developer-portal.dto';
import { GamesService, GameView, VersionView } from '../developer-portal/games.service';
import { AdminAuth } from '../identity/auth.decorators';
import { AccountsService } from '../identity/accounts.service';
import { UserResponseDto } from '../identity/identity.dto';

@ApiTags('admin')
@Controller('api/admin')
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly games: GamesService,
  ) {}

  @Post('users/:userId/verify-email')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark an account\'s e-mail as verified' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown user' })
  async verifyEmail(@Param() params: UserIdParamsDto): Promise<UserResponseDto> {
    return { user: await this.accounts.verifyEmail(params.userId) };
  }

  @Post('versions/:versionId/approve')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a version: the developer may publish it' })
  @ApiOkResponse({ type: VersionDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown version' })
  approve(@Param() params: VersionIdParamsDto): Promise<VersionView> {
    return this.games.reviewVersion(params.versionId, 'approved');
  }

  @Post('versions/:versionId/reject')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a version, with an optional reason' })
  @ApiOkResponse({ type: VersionDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: 'NOT_FOUND: unknown version' })
  reject(@Param() params: VersionIdParamsDto, @Body() body: RejectVersionDto): Promise<VersionView> {
    return this.games.reviewVersion(params.versionId, 'rejected', body.reason ?? null);
  }

  @Post('games/:gameId/suspend')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Suspend a game: nobody but admins can play it, and its developer cannot publish it' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown game' })
  suspend(@Param() params: GameIdParamsDto): Promise<GameView> {
    return this.games.suspend(params.gameId);
  }

  @Post('games/:gameId/unsuspend')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Lift a suspension: the game returns to unpublished' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown game' })
  unsuspend(@Param() params: GameIdParamsDto): Promise<GameView> {
    return this.games.unsuspend(params.gameId);
  }
}
