import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ID_DOC, IdProperty, PageCursorProperty, PageLimitProperty } from '../../http/params';
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX_LENGTH } from './webhook.rules';

const EVENTS_DOC = {
  description: 'Event types to receive (at least one, no repeats; not `ping`). Left out: every type.',
  type: 'string',
  isArray: true,
  enum: [...WEBHOOK_EVENT_TYPES],
  example: ['insertion.created', 'insertion.voided'],
} as const;
const URL_DOC = {
  description: `Absolute https URL, at most ${WEBHOOK_URL_MAX_LENGTH} characters (http and private, loopback or link-local addresses only with WEBHOOK_ALLOW_PRIVATE=true)`,
  example: 'https://backend.example.com/arcade/webhooks',
  maxLength: WEBHOOK_URL_MAX_LENGTH,
};
const DESCRIPTION_DOC = { description: `At most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`, example: 'Production backend', maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH };
const eventsMessage = { message: `each event type is one of ${WEBHOOK_EVENT_TYPES.join(', ')}` };

/** An endpoint's event types, as creating and changing it take them (each says when they may be left out). */
const WebhookEvents = () =>
  applyDecorators(ArrayMinSize(1), ArrayMaxSize(WEBHOOK_EVENT_TYPES.length), ArrayUnique(), IsIn([...WEBHOOK_EVENT_TYPES], { each: true, ...eventsMessage }));

/** An endpoint's description: optional, null for none. */
const WebhookDescription = () =>
  applyDecorators(ApiPropertyOptional({ ...DESCRIPTION_DOC, type: 'string', nullable: true }), IsOptional(), IsString(), MaxLength(WEBHOOK_DESCRIPTION_MAX_LENGTH));

export class CreateWebhookDto {
  @ApiProperty(URL_DOC)
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url!: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @IsArray()
  @WebhookEvents()
  events?: string[];

  @WebhookDescription()
  description?: string | null;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional(URL_DOC)
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @ValidateIf((_, value) => value !== undefined)
  @IsArray()
  @WebhookEvents()
  events?: string[];

  @WebhookDescription()
  description?: string | null;

  @ApiPropertyOptional({ description: 'false: nothing is recorded for it; true again: its pending deliveries resume' })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookIdParamsDto {
  @IdProperty('Webhook endpoint id')
  webhookId!: string;
}

export class DeliveryParamsDto extends WebhookIdParamsDto {
  @IdProperty('Delivery id')
  deliveryId!: string;
}

export class DeliveriesQueryDto {
  @PageLimitProperty()
  limit?: number;

  @PageCursorProperty()
  cursor?: string;
}

export class WebhookDto {
  @ApiProperty(ID_DOC) webhookId!: string;
  @ApiProperty({ example: 'https://backend.example.com/arcade/webhooks' }) url!: string;
  @ApiProperty({ type: 'string', isArray: true, enum: [...WEBHOOK_EVENT_TYPES] }) events!: string[];
  @ApiProperty({ type: 'string', nullable: true, example: 'Production backend' }) description!: string | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

const SECRET_DOC = { description: '`whsec_` + base64 of 32 random bytes; shown this once only', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1cbRy0ktPwo=', pattern: '^whsec_[A-Za-z0-9+/]{43}=$' };

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty(SECRET_DOC) secret!: string;
}

export class WebhookListDto {
  @ApiProperty({ type: WebhookDto, isArray: true }) webhooks!: WebhookDto[];
}

export class WebhookSecretDto {
  @ApiProperty(SECRET_DOC) secret!: string;
}

export class WebhookEventIdDto {
  @ApiProperty({ ...ID_DOC, description: 'The ping event\'s id (its webhook-id header)' }) eventId!: string;
}

export class DeliveryIdDto {
  @ApiProperty(ID_DOC) deliveryId!: string;
}

export class DeliveryDto {
  @ApiProperty(ID_DOC) deliveryId!: string;
  @ApiProperty({ ...ID_DOC, description: 'The event id, the webhook-id header' }) eventId!: string;
  @ApiProperty({ enum: ['ping', ...WEBHOOK_EVENT_TYPES] }) type!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastAttemptAt!: Date | null;
  @ApiProperty({ type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'timed out after 10 s' }) lastError!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) nextAttemptAt!: Date | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

export class DeliveryPageDto {
  @ApiProperty({ type: DeliveryDto, isArray: true }) deliveries!: DeliveryDto[];
  @ApiProperty({ type: 'string', nullable: true }) nextCursor!: string | null;
}
