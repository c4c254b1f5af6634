import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { ApiErrors } from '../../http/error-responses';
import { sendNoncePage, standalonePageStart } from '../../http/html-page';
import { Public } from '../../http/public.decorator';
import { AccountContext, CurrentAccount, OptionalAccount, SignedIn } from '../identity/auth.decorators';
import { checkoutPage, returnPath } from './checkout-page';
import { PurchaseDto, PurchaseIdParamsDto, SandboxPayDto } from './payments.dto';
import { purchaseView, PurchasesService, PurchaseView } from './purchases.service';
import { SandboxCheckoutService } from './sandbox-checkout.service';

function notFoundPage(res: Response): void {
  sendNoncePage(
    res,
    () => `${standalonePageStart('Not found — Arcade', 'data-page="not-found"')}<main id="main" class="wrap">
  <h1>Not found</h1>
  <p>There is nothing here.</p>
</main>
</body>
</html>
`,
    404,
  );
}

@ApiTags('payments')
@Controller()
export class CheckoutController {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly purchases: PurchasesService,
    private readonly sandbox: SandboxCheckoutService,
  ) {}

  @Get('checkout/:purchaseId')
  @Public()
  @ApiOperation({
    summary: 'The checkout page (HTML)',
    description:
      'The pack and its price; with the sandbox provider a "Card number" field and "Pay", then "Payment received" or "Payment declined" and "Continue" to `return`. ' +
      'Signed out: redirect to sign in. Someone else\'s purchase (admins included) or an unknown one: the 404 page.',
  })
  @ApiProduces('text/html')
  @ApiParam({ name: 'purchaseId', description: 'A purchase id', schema: { type: 'string', maxLength: 64 } })
  @ApiQuery({ name: 'return', required: false, description: 'Where "Continue" leads: a path on this origin (else /me)', example: '/me' })
  @ApiOkResponse({ description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiResponse({ status: 302, description: 'Not signed in: redirect to /auth/login?next=…', headers: { Location: { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ description: 'The 404 page', content: { 'text/html': { schema: { type: 'string' } } } })
  async page(@OptionalAccount() account: AccountContext | undefined, @Param('purchaseId') purchaseId: string, @Query('return') back: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!account) return res.redirect(302, `/auth/login?next=${encodeURIComponent(req.originalUrl)}`);
    const purchase = await this.purchases.ownPurchase(account.accountId, purchaseId);
    if (!purchase) return notFoundPage(res);
    sendNoncePage(res, (nonce) => checkoutPage({ purchase: purchaseView(purchase), provider: this.config.payments.provider, back: returnPath(back), nonce }));
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
