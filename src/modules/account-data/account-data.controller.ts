import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { AccountContext, CurrentAccount, SignedIn } from '../../http/account-auth';
import { ApiErrors } from '../../http/error-responses';
import { Actor, AuditActor } from '../audit';
import { clearedAuthCookies } from '../identity';
import { ApiRateLimited } from '../rate-limits';
import { AccountDataExportDto, DeleteAccountDto } from './account-data.dto';
import { EraseAccountService } from './erase-account.service';
import { AccountDataExport, ExportAccountDataService } from './export-account-data.service';

/** A person's own data: download it, or erase the account (CONTRACT §20). */
@ApiTags('accounts')
@Controller('api/me')
export class AccountDataController {
  private readonly secure: boolean;

  constructor(
    private readonly exports: ExportAccountDataService,
    private readonly erasure: EraseAccountService,
    @Inject(CONFIG) config: Config,
  ) {
    this.secure = new URL(config.publicOrigin).protocol === 'https:';
  }

  @Get('export')
  @SignedIn()
  @ApiOperation({
    summary: 'Download my data',
    description:
      'Everything the service keeps about the account, as a JSON file (`Content-Disposition: attachment; filename="arcade-export-YYYY-MM-DD.json"`, ' +
      "the date `exportedAt`'s UTC date). Never a password hash, token hash, key secret or TOTP secret.",
  })
  @ApiOkResponse({
    type: AccountDataExportDto,
    headers: { 'Content-Disposition': { description: 'attachment; filename="arcade-export-YYYY-MM-DD.json"', schema: { type: 'string' } } },
  })
  @ApiRateLimited('too many exports for this account (`RATE_LIMIT_EXPORT_PER_ACCOUNT`, default 5 per hour)')
  async export(@CurrentAccount() auth: AccountContext, @Res({ passthrough: true }) res: Response): Promise<AccountDataExport> {
    const data = await this.exports.export(auth.accountId);
    res.setHeader('Content-Disposition', `attachment; filename="arcade-export-${data.exportedAt.toISOString().slice(0, 10)}.json"`);
    res.setHeader('Cache-Control', 'no-store');
    return data;
  }

  @Post('delete')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete my account',
    description:
      'Erases the account at once: e-mail, display name, password hash, two-factor data and login sessions removed (the e-mail may sign up again), ' +
      "API keys revoked, the wallet's coins forfeited (ledger kind `forfeit`). Money and moderation records stay, tied to the account's id; " +
      'board entries keep their initials. The check of `currentPassword` counts as a login attempt on the e-mail, and comes before the 409.',
  })
  @ApiNoContentResponse({ description: 'Erased; the auth cookie is cleared' })
  @ApiErrors({
    400: 'INVALID_REQUEST: `confirm` is not exactly "DELETE"',
    403: 'WRONG_PASSWORD: `currentPassword` is wrong (counted as a failed login)',
    409: 'CONFLICT: an admin account, or a developer with a published game (unpublish first)',
    503: 'SERVICE_UNAVAILABLE: too many passwords being checked at this moment; `Retry-After: 1`',
  })
  @ApiRateLimited('too many failed logins for this e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, default 10 per 15 minutes)')
  async delete(
    @CurrentAccount() auth: AccountContext,
    @Actor() actor: AuditActor,
    @Body() body: DeleteAccountDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.erasure.erase(auth, body.currentPassword, actor.requestId);
    res.setHeader('Set-Cookie', clearedAuthCookies(req, this.secure));
  }
}
