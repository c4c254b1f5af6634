import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { AchievementDefinitionsService, AchievementDefinitionView } from './achievement-definitions.service';
import { GameIdParamsDto } from '../../http/params';
import {PortalAchievementDto, AchievementParamsDto, CreateAchievementDto, UpdateAchievementDto } from './developer-portal.dto';

const NOT_FOUND = 'NOT_FOUND: unknown game or another developer\'s, or unknown achievement key';

@ApiTags('developer portal')
@Controller('api/portal/games/:gameId/achievements')
export class AchievementDefinitionsController {
  constructor(private readonly definitions: AchievementDefinitionsService) {}

  @Get()
  @DeveloperAuth()
  @ApiOperation({ summary: 'The game\'s achievement definitions, active and retired, in creation order' })
  @ApiOkResponse({ type: PortalAchievementDto, isArray: true })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND })
  list(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto): Promise<AchievementDefinitionView[]> {
    return this.definitions.list(developer.developerId, params.gameId);
  }

  @Post()
  @DeveloperAuth()
  @HttpCode(201)
  @ApiOperation({ summary: 'Define an achievement (at most 50 per game, retired ones included)' })
  @ApiCreatedResponse({ type: PortalAchievementDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND, 409: 'ACHIEVEMENT_LIMIT_REACHED: the game has 50; ACHIEVEMENT_KEY_TAKEN: the key exists' })
  create(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto, @Body() body: CreateAchievementDto): Promise<AchievementDefinitionView> {
    return this.definitions.create(developer.developerId, params.gameId, { ...body, secret: body.secret ?? false });
  }

  @Patch(':key')
  @DeveloperAuth()
  @ApiOperation({ summary: 'Change an achievement', description: 'The key is locked once any player has unlocked the achievement.' })
  @ApiOkResponse({ type: PortalAchievementDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND, 409: 'ACHIEVEMENT_KEY_LOCKED: a player unlocked it; ACHIEVEMENT_KEY_TAKEN: the new key exists' })
  update(@CurrentDeveloper() developer: DeveloperContext, @Param() params: AchievementParamsDto, @Body() body: UpdateAchievementDto): Promise<AchievementDefinitionView> {
    return this.definitions.update(developer.developerId, params.gameId, params.key, body);
  }

  @Post(':key/retire')
  @DeveloperAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Retire an achievement', description: 'It can no longer be unlocked; it keeps its key and still counts toward the 50.' })
  @ApiOkResponse({ type: PortalAchievementDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND })
  retire(@CurrentDeveloper() developer: DeveloperContext, @Param() params: AchievementParamsDto): Promise<AchievementDefinitionView> {
    return this.definitions.retire(developer.developerId, params.gameId, params.key);
  }
}
