import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { ApiErrors } from '../../http/error-responses';
import { PAGE_LIMIT_DEFAULT } from '../../http/params';
import {
  CreatedWebhookDto, CreateWebhookDto, DeliveriesQueryDto, DeliveryIdDto, DeliveryPageDto, DeliveryParamsDto, UpdateWebhookDto,
  WebhookDto, WebhookEventIdDto, WebhookIdParamsDto, WebhookListDto, WebhookSecretDto,
} from './webhooks.dto';
import { DeliveryView, WebhooksService, WebhookView } from './webhooks.service';

const NOT_FOUND = 'NOT_FOUND: unknown endpoint, or another developer\'s';

/** CONTRACT §21: a developer's webhook endpoints, their secrets, test pings and delivery logs. */
@ApiTags('developer portal')
@Controller('api/portal/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @DeveloperAuth()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a webhook endpoint', description: 'The signing secret is in this answer only. At most 5 endpoints per developer, disabled ones included.' })
  @ApiCreatedResponse({ type: CreatedWebhookDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a URL that is not https or points at a private address, an unknown or repeated event type, ping', 409: 'WEBHOOK_LIMIT_REACHED' })
  create(@CurrentDeveloper() developer: DeveloperContext, @Body() body: CreateWebhookDto): Promise<WebhookView & { secret: string }> {
    return this.webhooks.create(developer.developerId, body);
  }

  @Get()
  @DeveloperAuth()
  @ApiOperation({ summary: 'The developer\'s webhook endpoints (never their secrets)' })
  @ApiOkResponse({ type: WebhookListDto })
  list(@CurrentDeveloper() developer: DeveloperContext): Promise<{ webhooks: WebhookView[] }> {
    return this.webhooks.list(developer.developerId);
  }

  @Patch(':webhookId')
  @DeveloperAuth()
  @ApiOperation({ summary: 'Change an endpoint', description: 'Any of url, events, description, enabled. Re-enabling a disabled endpoint resumes its pending deliveries.' })
  @ApiOkResponse({ type: WebhookDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: NOT_FOUND })
  update(@CurrentDeveloper() developer: DeveloperContext, @Param() params: WebhookIdParamsDto, @Body() body: UpdateWebhookDto): Promise<WebhookView> {
    return this.webhooks.update(developer.developerId, params.webhookId, body);
  }

  @Delete(':webhookId')
  @DeveloperAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint', description: 'Nothing more is sent to it; it no longer counts towards the 5.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 404: NOT_FOUND })
  async remove(@CurrentDeveloper() developer: DeveloperContext, @Param() params: WebhookIdParamsDto): Promise<void> {
    await this.webhooks.remove(developer.developerId, params.webhookId);
  }

  @Post(':webhookId/rotate-secret')
  @DeveloperAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the signing secret', description: 'The new secret is in this answer only; for 24 hours every delivery carries two signatures, the old secret\'s and the new one\'s.' })
  @ApiOkResponse({ type: WebhookSecretDto })
  @ApiErrors({ 404: NOT_FOUND })
  rotate(@CurrentDeveloper() developer: DeveloperContext, @Param() params: WebhookIdParamsDto): Promise<{ secret: string }> {
    return this.webhooks.rotateSecret(developer.developerId, params.webhookId);
  }

  @Post(':webhookId/test')
  @DeveloperAuth()
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a test event', description: 'A `ping` event is delivered to that endpoint alone, whatever its events and enabled.' })
  @ApiAcceptedResponse({ type: WebhookEventIdDto })
  @ApiErrors({ 404: NOT_FOUND })
  test(@CurrentDeveloper() developer: DeveloperContext, @Param() params: WebhookIdParamsDto): Promise<{ eventId: string }> {
    return this.webhooks.sendTest(developer.developerId, params.webhookId);
  }

  @Get(':webhookId/deliveries')
  @DeveloperAuth()
  @ApiOperation({ summary: 'The endpoint\'s delivery log, newest first' })
  @ApiOkResponse({ type: DeliveryPageDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a bad limit or an unreadable cursor', 404: NOT_FOUND })
  deliveries(@CurrentDeveloper() developer: DeveloperContext, @Param() params: WebhookIdParamsDto, @Query() query: DeliveriesQueryDto): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
    return this.webhooks.deliveries(developer.developerId, params.webhookId, { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor });
  }

  @Post(':webhookId/deliveries/:deliveryId/retry')
  @DeveloperAuth()
  @HttpCode(202)
  @ApiOperation({ summary: 'Retry a delivery now', description: 'One more attempt at once, whatever its status; it counts in attempts, and a success makes the delivery succeeded.' })
  @ApiAcceptedResponse({ type: DeliveryIdDto })
  @ApiErrors({ 404: 'NOT_FOUND: unknown endpoint or delivery, or another developer\'s' })
  retry(@CurrentDeveloper() developer: DeveloperContext, @Param() params: DeliveryParamsDto): Promise<{ deliveryId: string }> {
    return this.webhooks.retry(developer.developerId, params.webhookId, params.deliveryId);
  }
}
