import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { ApiKeyRow } from './api-key.repository';
import { ApiKeysService, CreatedApiKey } from './api-keys.service';
import { ApiKeyDto, ApiKeyIdParamsDto, CreateApiKeyDto, CreatedApiKeyDto } from './developer-portal.dto';

@ApiTags('developer portal')
@Controller('api/portal/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @DeveloperAuth()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key', description: 'The full key is in this answer only; the service keeps its SHA-256 hash.' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiErrors({ 400: 'INVALID_REQUEST' })
  create(@CurrentDeveloper() developer: DeveloperContext, @Actor() actor: AuditActor, @Body() body: CreateApiKeyDto): Promise<CreatedApiKey> {
    return this.keys.create(actor, developer.developerId, body.kind, body.name);
  }

  @Get()
  @DeveloperAuth()
  @ApiOperation({ summary: 'The developer\'s API keys, newest first (never the full key)' })
  @ApiOkResponse({ type: ApiKeyDto, isArray: true })
  list(@CurrentDeveloper() developer: DeveloperContext): Promise<ApiKeyRow[]> {
    return this.keys.list(developer.developerId);
  }

  @Delete(':id')
  @DeveloperAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key', description: 'The key answers 401 from then on. Revoking again changes nothing.' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown key, or another developer\'s' })
  async revoke(@CurrentDeveloper() developer: DeveloperContext, @Actor() actor: AuditActor, @Param() params: ApiKeyIdParamsDto): Promise<void> {
    await this.keys.revoke(actor, developer.developerId, params.id);
  }
}
