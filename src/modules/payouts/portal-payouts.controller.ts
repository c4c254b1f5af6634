import { Body, Controller, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { PAGE_LIMIT_DEFAULT } from '../../http/params';
import { BalanceDto, PayoutMethodResponseDto, PayoutsPageDto, PayoutsQueryDto, SetPayoutMethodDto } from './payouts.dto';
import { BalanceView, PayoutsService } from './payouts.service';
import type { PayoutMethodView, PayoutView } from './payouts.views';

/** The developer's balance, payout method and payouts (CONTRACT §22). */
@ApiTags('developer portal')
@Controller('api/portal')
export class PortalPayoutsController {
  constructor(private readonly payouts: PayoutsService) {}

  @Get('balance')
  @DeveloperAuth()
  @ApiOperation({
    summary: 'The developer\'s balance, what is held and what is available for a payout',
    description: 'Exact money strings (§16.33). `availableUsd` = `balanceUsd` − `heldUsd`, never below 0; a run pays it, floored to a cent, once it reaches `minimumPayoutUsd` and a payout method is set.',
  })
  @ApiOkResponse({ type: BalanceDto })
  balance(@CurrentDeveloper() developer: DeveloperContext): Promise<BalanceView> {
    return this.payouts.balance(developer.developerId);
  }

  @Put('payout-method')
  @DeveloperAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Set how the developer is paid', description: '`{ kind: "sandbox" }` or `{ kind: "stripe", accountId: "acct_…" }`. Payouts already made keep the method of their run.' })
  @ApiOkResponse({ type: PayoutMethodResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: an unknown kind, or stripe without a Stripe Connect account id (acct_…)' })
  setMethod(@CurrentDeveloper() developer: DeveloperContext, @Body() body: SetPayoutMethodDto): Promise<{ payoutMethod: PayoutMethodView }> {
    return this.payouts.setMethod(developer.developerId, body.kind, body.accountId);
  }

  @Get('payouts')
  @DeveloperAuth()
  @ApiOperation({ summary: 'The developer\'s payouts, newest first' })
  @ApiOkResponse({ type: PayoutsPageDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: an unreadable cursor or a limit outside 1 to 100' })
  list(@CurrentDeveloper() developer: DeveloperContext, @Query() query: PayoutsQueryDto): Promise<{ payouts: PayoutView[]; nextCursor: string | null }> {
    return this.payouts.list(developer.developerId, { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor });
  }
}
