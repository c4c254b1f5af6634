import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { h } from 'preact';
import { CONFIG, Config } from '../../config';
import { ApiErrors } from '../../http/error-responses';
import { sendPage, Viewer } from '../../http/pages/layout';
import { CurrentViewer, Page, PageNotFound, safeNext } from '../../http/pages/page-auth';
import { AccountContext, CurrentAccount, SignedIn } from '../../http/account-auth';
import { CheckoutPage } from './checkout-page';
import { PurchaseDto, PurchaseIdParamsDto, SandboxPayDto } from './payments.dto';
import { purchaseView, PurchasesService, PurchaseView } from './purchases.service';
import { SandboxCheckoutService } from './sandbox-checkout.service';

@ApiTags('payments')
@Controller()
export class CheckoutController {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly purchases: PurchasesService,
    private readonly sandbox: SandboxCheckoutService,
  ) {}

  @Get('checkout/:purchaseId')
  @Page('signed-in', {
    summary: 'The checkout page (HTML)',
    description:
      'The pack and its price; with the sandbox provider a "Card number" field and "Pay", then "Payment received" or "Payment declined" and "Continue" to `return`. ' +
      'Someone else\'s purchase (admins included) or an unknown one: the 404 page.',
  })
  @ApiParam({ name: 'purchaseId', description: 'A purchase id', schema: { type: 'string', maxLength: 64 } })
  @ApiQuery({ name: 'return', required: false, description: 'Where "Continue" leads: a path on this origin (else /me)', example: '/me' })
  async page(@CurrentViewer() viewer: Viewer, @Param('purchaseId') purchaseId: string, @Query('return') back: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const purchase = purchaseId.length <= 64 ? await this.purchases.ownPurchase(viewer.accountId, purchaseId) : undefined;
    if (!purchase) throw new PageNotFound();
    sendPage(
      res,
      h(CheckoutPage, { viewer, purchase: purchaseView(purchase), provider: this.config.payments.provider, back: safeNext(back), path: req.originalUrl }),
    );
  }

  @Post('api/sandbox/purchases/:purchaseId/pay')
  @SignedIn()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pay a purchase with a sandbox test card (sandbox provider only)',
    description:
      '`4242 4242 4242 4242` pays, `4000 0000 0000 0002` is declined (the purchase fails); the outcome reaches the service as a signed event through ' +
      '`POST /webhooks/payments/sandbox`, like a real provider\'s. Any other number: 400 and nothing changes. A purchase already paid: answered as it is.',
  })
  @ApiOkResponse({ type: PurchaseDto, description: 'The purchase after the payment: `paid`, or `failed` when declined' })
  @ApiErrors({ 400: 'INVALID_REQUEST: not a sandbox test card', 404: 'NOT_FOUND: not the caller\'s purchase, or the provider is not the sandbox' })
  pay(@CurrentAccount() account: AccountContext, @Param() params: PurchaseIdParamsDto, @Body() body: SandboxPayDto): Promise<PurchaseView> {
    return this.sandbox.pay(account.accountId, params.purchaseId, body.cardNumber);
  }
}
