import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { PlaySessionIdParamsDto } from '../../http/params';
import { ApiRateLimited } from '../rate-limits';
import { CurrentPlayer, KeptLoginPlayer, PlayerAuth, PlayerContext } from '../../http/account-auth';
import { InsertCoinAnswer, InsertCoinService } from './insert-coin.service';
import {
  CreatePlaySessionDto,
  EndedPlaySessionDto,
  HeartbeatDto,
  InsertCoinDto,
  InsertCoinResultDto,
  PlaySessionDto,
} from './play-sessions.dto';
import { CreatedPlaySession, PlaySessionsService } from './play-sessions.service';

@ApiTags('play')
@Controller('api/play/sessions')
export class PlaySessionsController {
  constructor(private readonly sessions: PlaySessionsService, private readonly insertCoins: InsertCoinService) {}

  @Post()
  @PlayerAuth()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Start a play session',
    description:
      'Ordinary players: published games only, a paid session. The game\'s developer and admins get a test-mode session on an unpublished game ' +
      '(admins also on a suspended one), and on a published game when they send `preview: true`. `versionId` needs `preview: true`.',
  })
  @ApiCreatedResponse({ type: PlaySessionDto })
  @ApiErrors({
    400: 'INVALID_REQUEST (also: versionId without preview: true)',
    403: 'FORBIDDEN: preview asked by someone who is neither the game\'s developer nor an admin',
    404: 'GAME_UNAVAILABLE: unknown, unpublished or suspended game, a versionId of another game, or no playable version',
  })
  create(@CurrentPlayer() player: PlayerContext, @Body() body: CreatePlaySessionDto): Promise<CreatedPlaySession> {
    return this.sessions.create(player, body);
  }

  @Post(':id/heartbeat')
  @PlayerAuth({ sessionCheckedByStatement: true })
  @HttpCode(200)
  @ApiOperation({ summary: 'Keep a play session alive', description: 'Moves lastSeenAt to now. Never revives an ended or timed-out session (410).' })
  @ApiOkResponse({ type: HeartbeatDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id longer than 64 characters', 404: 'SESSION_NOT_FOUND: unknown or another player\'s', 410: 'SESSION_EXPIRED: ended or idle past the timeout' })
  heartbeat(@CurrentPlayer() player: KeptLoginPlayer, @Param() params: PlaySessionIdParamsDto): Promise<HeartbeatDto> {
    return this.sessions.heartbeat(player, params.id);
  }

  @Post(':id/end')
  @PlayerAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'End a play session', description: 'From any state; ending an ended session answers the original endedAt.' })
  @ApiOkResponse({ type: EndedPlaySessionDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id longer than 64 characters', 404: 'SESSION_NOT_FOUND: unknown or another player\'s' })
  end(@CurrentPlayer() player: PlayerContext, @Param() params: PlaySessionIdParamsDto): Promise<EndedPlaySessionDto> {
    return this.sessions.end(player.playerId, params.id);
  }

  @Post(':id/insert-coin')
  @PlayerAuth({ sessionCheckedByStatement: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Buy one credit',
    description:
      'Debits the session\'s coinsPerCredit and records the insertion and the developer\'s 70% earning in one transaction. ' +
      'Idempotent per idempotencyKey of the caller: a retry answers the original with `replayed: true` before any state, limit or balance check. ' +
      'Limits per play session: 1 attempt per 500 ms and 60 in any 60 seconds (a 402 counts; a replay, 409 or 429 does not). ' +
      'Test-mode sessions debit and store nothing and answer a `test_` insertion id (rate limited too).',
  })
  @ApiOkResponse({ type: InsertCoinResultDto })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    402: 'INSUFFICIENT_COINS: nothing debited; body adds balance and coinsPerCredit',
    404: 'SESSION_NOT_FOUND: unknown or another player\'s',
    409: 'IDEMPOTENCY_KEY_CONFLICT: the key was used for another request',
    410: 'SESSION_EXPIRED: ended or idle past the timeout',
  })
  @ApiRateLimited('more than 1 attempt per 500 ms or 60 in any 60 seconds on this play session')
  insertCoin(@CurrentPlayer() player: KeptLoginPlayer, @Param() params: PlaySessionIdParamsDto, @Body() body: InsertCoinDto): Promise<InsertCoinAnswer> {
    return this.insertCoins.insertCoin(player, params.id, { idempotencyKey: body.idempotencyKey });
  }
}
