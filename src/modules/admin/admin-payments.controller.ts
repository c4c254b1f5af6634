import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { RequestId } from '../../http/request-id.decorator';
import { InsertionIdParamsDto, UserIdParamsDto } from '../../http/params';
import { AdminAuth, AdminContext, CurrentAdmin } from '../../http/account-auth';
import { AdminUserResponseDto } from '../identity';
import { VoidInsertionDto, VoidResultDto } from './admin-payments.dto';
import { FreezeWalletDto } from './admin.dto';
import { VoidAnswer, VoidInsertionService } from './void-insertion.service';
import { WalletFreezeService } from './wallet-freeze.service';

/** The admin side of buying coins (CONTRACT §19): wallet freezes and insertion voids, each audited. */
@ApiTags('admin')
@Controller('api/admin')
export class AdminPaymentsController {
  constructor(
    private readonly freezes: WalletFreezeService,
    private readonly voids: VoidInsertionService,
  ) {}

  @Post('wallets/:userId/freeze')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Freeze a user\'s wallet',
    description:
      'New insert-coins and purchases answer 403 WALLET_FROZEN until it is unfrozen; replays, sessions, scores and admin credits are not affected. ' +
      'Audited as `wallet.freeze`, with the optional `reason`; freezing a frozen wallet changes nothing.',
  })
  @ApiBody({ type: FreezeWalletDto, required: false })
  @ApiOkResponse({ type: AdminUserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a reason that is not 1 to 200 characters, or id over 64 characters', 404: 'NOT_FOUND: unknown user, or a user without a wallet (no player profile)' })
  async freeze(
    @CurrentAdmin() admin: AdminContext,
    @Param() params: UserIdParamsDto,
    @Body() body: FreezeWalletDto,
    @RequestId() requestId: string | null,
  ): Promise<AdminUserResponseDto> {
    return { user: await this.freezes.freeze(admin.accountId, params.userId, requestId, body?.reason ?? null) };
  }

  @Post('wallets/:userId/unfreeze')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Unfreeze a user\'s wallet', description: 'Unfreezing a wallet that is not frozen changes nothing.' })
  @ApiOkResponse({ type: AdminUserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown user, or a user without a wallet (no player profile)' })
  async unfreeze(@CurrentAdmin() admin: AdminContext, @Param() params: UserIdParamsDto, @RequestId() requestId: string | null): Promise<AdminUserResponseDto> {
    return { user: await this.freezes.unfreeze(admin.accountId, params.userId, requestId) };
  }

  @Post('insertions/:insertionId/void')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Void an insertion: the coins back to the player',
    description:
      'Returns the coins (wallet entry of kind `void`), takes the insertion out of the developer\'s earnings (on the day of the void), removes its score from every board, ' +
      'and developer verification shows `voidedAt`. Voiding a voided insertion, with any key: 200, the first answer with `replayed: true`. The same key for another ' +
      'insertion or reason: 409 IDEMPOTENCY_KEY_CONFLICT.',
  })
  @ApiOkResponse({ type: VoidResultDto })
  @ApiErrors({ 400: 'INVALID_REQUEST', 404: 'NOT_FOUND: unknown or test-mode insertion', 409: 'IDEMPOTENCY_KEY_CONFLICT' })
  async void(
    @CurrentAdmin() admin: AdminContext,
    @Param() params: InsertionIdParamsDto,
    @Body() body: VoidInsertionDto,
    @RequestId() requestId: string | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<VoidAnswer> {
    const result = await this.voids.void(admin.accountId, params.insertionId, body, requestId);
    res.status(200);
    return result.body;
  }
}
