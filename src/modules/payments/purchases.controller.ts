import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { AccountContext, CurrentAccount, CurrentPlayer, PlayerAuth, PlayerContext, SignedIn } from '../../http/account-auth';
import { ApiRateLimited } from '../rate-limits';
import { packView } from './coin-packs';
import { CreatePurchaseDto, PacksDto, PurchaseDto, PurchasesDto } from './payments.dto';
import { PENDING_PURCHASES_PER_PLAYER, PurchasesService, PurchaseView } from './purchases.service';

@ApiTags('payments')
@Controller()
export class PurchasesController {
  constructor(private readonly purchases: PurchasesService) {}

  @Get('api/shop/packs')
  @Public()
  @ApiOperation({ summary: 'The coin packs on sale', description: 'From `COIN_PACKS`, priced at face value: 1 coin = 0.25 USD.' })
  @ApiOkResponse({ type: PacksDto })
  packs(): PacksDto {
    return { currency: 'USD', packs: this.purchases.packs.map(packView) };
  }

  @Post('api/me/purchases')
  @PlayerAuth()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Buy a pack: a pending purchase and where to pay for it',
    description:
      'Idempotent per `idempotencyKey` of the caller: a repeat answers 200 with the purchase as it is now (no second checkout); the same key for another pack ' +
      '(or another endpoint) 409 IDEMPOTENCY_KEY_CONFLICT; concurrent repeats make one purchase. A wallet frozen by a dispute: 403 WALLET_FROZEN (after validation; ' +
      'a repeat of an existing key still answers 200). The coins arrive when the payment provider confirms the payment. ' +
      'The purchase is recorded first, then its checkout is opened at the provider, which has 5 seconds: a repeat of the key meanwhile answers 200 with ' +
      '`checkoutUrl` null; a provider that fails or has not answered in time: 503 SERVICE_UNAVAILABLE and the purchase is `failed` (the same key then answers 200 with it). ' +
      'A freeze that answered before the checkout was stored refuses the purchase too (403, the purchase `failed`).',
  })
  @ApiCreatedResponse({ type: PurchaseDto, description: 'Created, `status: pending`' })
  @ApiOkResponse({ type: PurchaseDto, description: 'A repeat of the key: the purchase as it is now' })
  @ApiErrors({
    400: 'INVALID_REQUEST: unknown pack, bad key',
    403: 'WALLET_FROZEN: a payment dispute froze the wallet',
    409: 'IDEMPOTENCY_KEY_CONFLICT',
    503: 'SERVICE_UNAVAILABLE: the payment provider did not open a checkout within 5 seconds; the purchase failed (buy again with a new key)',
  })
  @ApiRateLimited(
    `more than ${PENDING_PURCHASES_PER_PLAYER} \`pending\` purchases at once, or too many new purchases per player (\`RATE_LIMIT_PURCHASES_PER_PLAYER\`, default 20 per 3600 s); ` +
      'a repeat of an existing key and a refused request are not counted',
  )
  async create(@CurrentPlayer() player: PlayerContext, @Body() body: CreatePurchaseDto, @Res({ passthrough: true }) res: Response): Promise<PurchaseView> {
    const { statusCode, purchase } = await this.purchases.create(player, body);
    res.status(statusCode);
    return purchase;
  }

  @Get('api/me/purchases')
  @SignedIn()
  @ApiOperation({ summary: 'The caller\'s purchases, newest first' })
  @ApiOkResponse({ type: PurchasesDto })
  list(@CurrentAccount() account: AccountContext): Promise<PurchasesDto> {
    return this.purchases.list(account.accountId);
  }
}
