import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { GameIdParamsDto } from '../../http/params';
import { CreateGameDto, CreateVersionDto, GameDto, PublishDto, UpdateGameDto, VersionDto } from './developer-portal.dto';
import { GamesService, GameView, VersionView } from './games.service';

const NOT_FOUND = 'NOT_FOUND: unknown game, or another developer\'s';

@ApiTags('developer portal')
@Controller('api/portal/games')
export class GamesController {
  constructor(private readonly games: GamesService) {}

  @Post()
  @DeveloperAuth()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a game', description: 'New games are unpublished.' })
  @ApiCreatedResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 409: 'SLUG_TAKEN' })
  create(@CurrentDeveloper() developer: DeveloperContext, @Body() body: CreateGameDto): Promise<GameView> {
    return this.games.create(developer.developerId, body);
  }

  @Get()
  @DeveloperAuth()
  @ApiOperation({ summary: 'The developer\'s games, newest first' })
  @ApiOkResponse({ type: GameDto, isArray: true })
  list(@CurrentDeveloper() developer: DeveloperContext): Promise<GameView[]> {
    return this.games.list(developer.developerId);
  }

  @Get(':gameId')
  @DeveloperAuth()
  @ApiOperation({ summary: 'One of the developer\'s games' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: NOT_FOUND })
  get(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto): Promise<GameView> {
    return this.games.get(developer.developerId, params.gameId);
  }

  @Patch(':gameId')
  @DeveloperAuth()
  @ApiOperation({ summary: 'Change title, price, maximum score or description', description: 'Running play sessions keep the price they started with.' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND })
  update(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto, @Body() body: UpdateGameDto): Promise<GameView> {
    return this.games.update(developer.developerId, params.gameId, body);
  }

  @Post(':gameId/versions')
  @DeveloperAuth()
  @HttpCode(201)
  @ApiOperation({ summary: 'Upload a version (a build\'s entry URL) for review', description: 'New versions are pending until an administrator approves or rejects them.' })
  @ApiCreatedResponse({ type: VersionDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND })
  addVersion(@CurrentDeveloper() developer: DeveloperContext, @Actor() actor: AuditActor, @Param() params: GameIdParamsDto, @Body() body: CreateVersionDto): Promise<VersionView> {
    return this.games.addVersion(actor, developer.developerId, params.gameId, body);
  }

  @Get(':gameId/versions')
  @DeveloperAuth()
  @ApiOperation({ summary: 'The game\'s versions, newest first' })
  @ApiOkResponse({ type: VersionDto, isArray: true })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND })
  listVersions(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto): Promise<VersionView[]> {
    return this.games.listVersions(developer.developerId, params.gameId);
  }

  @Post(':gameId/publish')
  @DeveloperAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish an approved version', description: 'The game becomes published with that version as its current version.' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    404: 'NOT_FOUND: unknown or foreign game, or a version that is not this game\'s',
    409: 'GAME_SUSPENDED: suspended by an administrator; VERSION_NOT_APPROVED: the version is pending or rejected',
  })
  publish(@CurrentDeveloper() developer: DeveloperContext, @Actor() actor: AuditActor, @Param() params: GameIdParamsDto, @Body() body: PublishDto): Promise<GameView> {
    return this.games.publish(actor, developer.developerId, params.gameId, body.versionId);
  }

  @Post(':gameId/unpublish')
  @DeveloperAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Take the game off the catalogue' })
  @ApiOkResponse({ type: GameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND, 409: 'GAME_SUSPENDED: only an administrator can lift a suspension' })
  unpublish(@CurrentDeveloper() developer: DeveloperContext, @Actor() actor: AuditActor, @Param() params: GameIdParamsDto): Promise<GameView> {
    return this.games.unpublish(actor, developer.developerId, params.gameId);
  }
}
