import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { AccountNotLinkedError } from '../identity';
import { AccountContext, AdminAuth, CurrentAccount, CurrentDeveloper, DeveloperAuth, DeveloperContext, SignedIn } from '../../http/account-auth';
import { AdminCreditsService } from './admin-credits.service';
import { PAGE_LIMIT_DEFAULT, UserIdParamsDto } from '../../http/params';
import { CreditCoinsDto, CreditResultDto, DailyEarningsDto, DailyEarningsQueryDto, EarningsDto, WalletDto, WalletQueryDto } from './wallet.dto';
import { DailyEarnings, EarningsReport, WalletPage, WalletService } from './wallet.service';

@ApiTags('wallet')
@Controller()
export class WalletController {
  constructor(private readonly wallets: WalletService, private readonly adminCredits: AdminCreditsService) {}

  @Get('api/me/wallet')
  @SignedIn()
  @ApiOperation({ summary: 'The caller\'s balance and ledger, newest first', description: 'Pages backwards with `before` = the previous page\'s `nextBefore`. 403 ACCOUNT_NOT_LINKED for an account without a player profile.' })
  @ApiOkResponse({ type: WalletDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: bad limit, or before is not an entry of this wallet' })
  wallet(@CurrentAccount() account: AccountContext, @Query() query: WalletQueryDto): Promise<WalletPage> {
    if (account.walletId === null) throw new AccountNotLinkedError();
    return this.wallets.entries(account.walletId, { limit: query.limit ?? PAGE_LIMIT_DEFAULT, before: query.before });
  }

  @Post('api/admin/wallets/:userId/credits')
  @AdminAuth()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Credit coins to a user\'s wallet (admin)',
    description: 'Idempotent per `idempotencyKey` of the calling admin: a retry answers 200 with `replayed: true` and credits nothing; the same key with another body: 409 IDEMPOTENCY_KEY_CONFLICT.',
  })
  @ApiCreatedResponse({ type: CreditResultDto, description: 'Credited' })
  @ApiOkResponse({ type: CreditResultDto, description: 'Replay of an applied key: credited once' })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: 'NOT_FOUND: unknown user, or a user without a player profile', 409: 'IDEMPOTENCY_KEY_CONFLICT' })
  async credit(
    @Actor() actor: AuditActor,
    @Param() params: UserIdParamsDto,
    @Body() body: CreditCoinsDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreditResultDto> {
    const result = await this.adminCredits.credit(actor, params.userId, body);
    res.status(result.statusCode);
    return result.body;
  }

  @Get('api/portal/earnings')
  @DeveloperAuth()
  @ApiOperation({
    summary: 'The developer\'s earnings per game',
    description: 'Every game of the developer, zero rows included. 1 coin = 0.25 USD; the developer earns 70%. Money as exact decimal strings ("1.5", "0.175", "0").',
  })
  @ApiOkResponse({ type: EarningsDto })
  earnings(@CurrentDeveloper() developer: DeveloperContext): Promise<EarningsReport> {
    return this.wallets.earnings(developer.developerId);
  }

  @Get('api/portal/earnings/daily')
  @DeveloperAuth()
  @ApiOperation({
    summary: 'The developer\'s earnings per UTC day',
    description:
      'Exactly `days` entries (default 30), one per UTC calendar day, oldest first, the last one today; days without paid insertions as zeros. ' +
      'Paid insertions only (test mode never counts), all games or the one named by `gameId`. `days` is validated first; then an unknown ' +
      'or another developer\'s `gameId` answers 404 NOT_FOUND. Money as exact decimal strings.',
  })
  @ApiOkResponse({ type: DailyEarningsDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: days not an integer from 1 to 366, or gameId over 64 characters', 404: 'NOT_FOUND: unknown game, or another developer\'s' })
  dailyEarnings(@CurrentDeveloper() developer: DeveloperContext, @Query() query: DailyEarningsQueryDto): Promise<DailyEarnings> {
    return this.wallets.dailyEarnings(developer.developerId, query.days ?? 30, query.gameId);
  }
}
