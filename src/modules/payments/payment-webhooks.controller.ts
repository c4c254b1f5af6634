import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath, ApiExtraModels } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { PaymentEventsService } from './payment-events.service';
import { SandboxEventDto, WebhookAckDto } from './payments.dto';

/** The path the raw-body parser serves (app.ts): the signature covers the exact bytes sent. */
export const PAYMENT_WEBHOOK_PATH = '/webhooks/payments';

@ApiTags('payments')
@ApiExtraModels(SandboxEventDto)
@Controller()
export class PaymentWebhooksController {
  constructor(private readonly events: PaymentEventsService) {}

  @Post('webhooks/payments/:provider')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Payment provider events (webhook)',
    description:
      'Called by the payment provider in use (`PAYMENT_PROVIDER`), never by browsers. The signature is verified over the raw body: `Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 ' +
      'of "<t>.<raw body>" keyed with PAYMENT_WEBHOOK_SECRET>` (several v1 allowed, hex in either case) for `sandbox`; `Stripe-Signature` for `stripe`, whose events ' +
      '`checkout.session.completed` and `checkout.session.async_payment_succeeded` (pay), `checkout.session.expired` and `checkout.session.async_payment_failed` (fail), ' +
      '`charge.refunded` (refund up to `amount_refunded`), `charge.refund.updated`, `refund.updated` and `refund.failed` with status `failed` (the refund\'s coins back), ' +
      '`charge.dispute.created` (dispute) and `charge.dispute.closed` with status `won` or `lost` are applied. ' +
      'A timestamp more than 5 minutes from now either way is refused. Each event id is applied at most once (the same id with another body changes nothing and is recorded); ' +
      'events take effect in the purchase\'s life order. An amount, currency or mode (Stripe `livemode` against the key) that does not match moves nothing. ' +
      'Any media type is read as the provider sent it.',
  })
  @ApiParam({ name: 'provider', enum: ['sandbox', 'stripe'], description: 'The provider in use; any other answers 404' })
  @ApiHeader({ name: 'Sandbox-Signature', required: false, description: 'sandbox: `t=1796600000,v1=5257a869...`' })
  @ApiHeader({ name: 'Stripe-Signature', required: false, description: 'stripe: as Stripe sends it' })
  @ApiBody({ description: 'The provider\'s event, as raw JSON (sandbox shown)', schema: { $ref: getSchemaPath(SandboxEventDto) } })
  @ApiOkResponse({ type: WebhookAckDto, description: 'Verified: applied, a duplicate, for an unknown purchase (recorded), or a type that changes nothing' })
  @ApiErrors({
    400:
      'INVALID_SIGNATURE: bad or missing signature, or a timestamp more than 5 minutes from now (nothing changes); INVALID_REQUEST: a verified body that is not a JSON event with `id` and `type`, ' +
      'holds U+0000 or a lone surrogate, or has an `amountCents` that is not a whole number of cents',
    404: 'NOT_FOUND: not the provider in use',
    413: 'PAYLOAD_TOO_LARGE',
  })
  receive(@Param('provider') provider: string, @Req() req: Request): Promise<WebhookAckDto> {
    const raw: unknown = req.body;
    return this.events.receive(provider, Buffer.isBuffer(raw) ? raw : Buffer.alloc(0), req.headers);
  }
}
