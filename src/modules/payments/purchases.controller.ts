import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { AccountContext, CurrentAccount, CurrentPlayer, PlayerAuth, PlayerContext, SignedIn } from '../../http/account-auth';
import { packView } from './coin-packs';
import { CreatePurchaseDto, PacksDto, PurchaseDto, PurchasesDto } from './payments.dto';
import { PurchasesService, PurchaseView } from './purchases.service';

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
      'a repeat of an existing key still answers 200). The coins arrive when the payment provider confirms the payment.',
  })
  @ApiCreatedResponse({ type: PurchaseDto, description: 'Created, `status: pending`' })
  @ApiOkResponse({ type: PurchaseDto, description: 'A repeat of the key: the purchase as it is now' })
  @ApiErrors({
    400: 'INVALID_REQUEST: unknown pack, bad key',
    403: 'WALLET_FROZEN: a payment dispute froze the wallet',
    409: 'IDEMPOTENCY_KEY_CONFLICT',
    503: 'SERVICE_UNAVAILABLE: the payment provider could not start a checkout (retry with the same key)',
  })
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
