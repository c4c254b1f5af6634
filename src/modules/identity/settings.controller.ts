import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { NotFoundError } from '../../errors/app-error';
import { AccountContext, CurrentAccount, SignedIn } from '../../http/account-auth';
import { ApiErrors } from '../../http/error-responses';
import { ApiRateLimited } from '../rate-limits';
import { AccountSettingsService } from './account-settings.service';
import { clearedAuthCookies } from './auth-cookie';
import { LoginSessionService } from './login-session.service';
import { ChangePasswordDto, DevicesDto, LoginSessionIdParamsDto } from './settings.dto';

/** A signed-in person's own account settings: the password and the signed-in devices (CONTRACT §20); e-mail, two-factor, export and deletion have their own controllers. */
@ApiTags('accounts')
@Controller('api/me')
export class SettingsController {
  private readonly secure: boolean;

  constructor(
    private readonly settings: AccountSettingsService,
    private readonly loginSessions: LoginSessionService,
    @Inject(CONFIG) config: Config,
  ) {
    this.secure = new URL(config.publicOrigin).protocol === 'https:';
  }

  @Post('password')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Change the password',
    description:
      'Checks `currentPassword`, sets `newPassword` and signs out every other login session of the account (this one stays). ' +
      'The check counts as a login attempt on the account\'s e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`): a wrong password stays counted.',
  })
  @ApiNoContentResponse({ description: 'Changed; every other login session is signed out' })
  @ApiErrors({
    400: 'INVALID_REQUEST: `newPassword` not 8 to 128 characters',
    403: 'WRONG_PASSWORD: `currentPassword` is wrong (counted as a failed login)',
    503: 'SERVICE_UNAVAILABLE: too many passwords being checked at this moment; `Retry-After: 1`',
  })
  @ApiRateLimited('too many failed logins for this e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, default 10 per 15 minutes)')
  changePassword(@CurrentAccount() auth: AccountContext, @Body() body: ChangePasswordDto): Promise<void> {
    return this.settings.changePassword(auth, body.currentPassword, body.newPassword);
  }

  @Get('sessions')
  @SignedIn()
  @ApiOperation({ summary: 'Signed-in devices', description: "The account's live login sessions, newest first; `current` marks this request's." })
  @ApiOkResponse({ type: DevicesDto })
  async devices(@CurrentAccount() auth: AccountContext): Promise<DevicesDto> {
    const rows = await this.loginSessions.devices(auth.accountId, auth.loginSessionId);
    return { sessions: rows.map((row) => ({ id: row.id, current: row.current, createdAt: row.created_at, lastSeenAt: row.last_seen_at, userAgent: row.user_agent })) };
  }

  @Post('sessions/revoke-others')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out everywhere else', description: 'Every login session of the account but this one answers 401 from then on, on every instance.' })
  @ApiNoContentResponse({ description: 'Signed out everywhere else' })
  async revokeOthers(@CurrentAccount() auth: AccountContext): Promise<void> {
    await this.loginSessions.revokeAllBut(auth.accountId, auth.loginSessionId);
  }

  @Delete('sessions/:id')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign one device out',
    description: "That login session answers 401 from then on, on every instance. This request's own session: signed out here too, the cookie cleared.",
  })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: "NOT_FOUND: unknown or already signed-out session, or another account's" })
  async revokeOne(
    @CurrentAccount() auth: AccountContext,
    @Param() params: LoginSessionIdParamsDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    if (!(await this.loginSessions.revokeDevice(auth.accountId, params.id))) throw new NotFoundError('No such signed-in device.');
    if (params.id === auth.loginSessionId) res.setHeader('Set-Cookie', clearedAuthCookies(req, this.secure));
  }
}
