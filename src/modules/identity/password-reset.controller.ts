import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { h } from 'preact';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { PublicSameOrigin } from '../../http/account-auth';
import { ApiErrors } from '../../http/error-responses';
import { sendPage, Viewer } from '../../http/pages/layout';
import { OptionalViewer, Page } from '../../http/pages/page-auth';
import { ApiRateLimited, clientAddress } from '../rate-limits';
import { AccountsService } from './accounts.service';
import { authCookie } from './auth-cookie';
import { UserResponseDto } from './identity.dto';
import { userAgentOf } from './login-session.service';
import { PasswordResetRequestDto, PasswordResetRequestedDto, ResetPasswordDto } from './password-reset.dto';
import { ForgotPasswordPage, ResetPasswordPage } from './password-reset-pages';
import { PasswordResetService } from './password-reset.service';
import { TwoFactorChallengeDto } from './two-factor.dto';

/** Password reset by mailed link (CONTRACT §20): the request, the new password with the link's token, and their pages. */
@ApiTags('accounts')
@Controller('auth')
export class PasswordResetController {
  private readonly secure: boolean;

  constructor(
    private readonly resets: PasswordResetService,
    private readonly accounts: AccountsService,
    @Inject(CONFIG) config: Config,
  ) {
    this.secure = new URL(config.publicOrigin).protocol === 'https:';
  }

  @Get('forgot')
  @Page('anyone', { summary: 'The "Forgot password?" page (HTML): form "Reset password", then "Check your e-mail" (`sent=1`)' })
  @ApiQuery({ name: 'sent', required: false, enum: ['1'], description: 'The link was asked for: the page says to check the mailbox' })
  forgotPage(@OptionalViewer() viewer: Viewer | null, @Query('sent') sent: unknown, @Res() res: Response): void {
    sendPage(res, h(ForgotPasswordPage, { viewer, sent: sent === '1' }));
  }

  @Get('reset-password')
  @Page('anyone', {
    summary: 'The mailed reset link (HTML): form "Set a new password"',
    description: 'Setting the password signs in and goes to /me. The token is checked when the form is sent (400 INVALID_TOKEN shown in the form).',
  })
  @ApiQuery({ name: 'token', required: true, description: 'The token from the reset mail' })
  resetPage(@OptionalViewer() viewer: Viewer | null, @Query('token') token: unknown, @Res() res: Response): void {
    sendPage(res, h(ResetPasswordPage, { viewer, token: typeof token === 'string' && token.length <= 128 ? token : '' }));
  }

  @Post('password-reset')
  @PublicSameOrigin()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Mail a password-reset link',
    description:
      'The same answer (status, body, headers) whether or not an account has the e-mail, after the same work. When one has, a mail ' +
      'goes to it with the link `PUBLIC_ORIGIN/auth/reset-password?token=<token>`: single use, valid 60 minutes; a newer request ' +
      'makes older unused links invalid. At most `RATE_LIMIT_RESET_PER_EMAIL` (default 5 per hour) mails per e-mail: beyond it the ' +
      'answer is the same and no mail goes (earlier links stay valid).',
  })
  @ApiAcceptedResponse({ type: PasswordResetRequestedDto, description: 'Accepted: a mail goes if an account has the e-mail' })
  @ApiErrors({ 400: 'INVALID_REQUEST' })
  @ApiRateLimited('too many reset requests from this client address (`RATE_LIMIT_RESET_PER_ADDRESS`, default 20 per hour)')
  async requestReset(@Body() body: PasswordResetRequestDto, @Req() req: Request): Promise<PasswordResetRequestedDto> {
    await this.resets.request(body.email, clientAddress(req));
    return { sent: true };
  }

  @Post('reset-password')
  @PublicSameOrigin()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password with the mailed token, and sign in',
    description:
      'Sets the auth_session cookie. Every other login session of the account is revoked, the e-mail\'s failed logins are cleared, ' +
      'and the e-mail counts as verified (the link proved the mailbox). The token is used up.',
  })
  @ApiExtraModels(UserResponseDto, TwoFactorChallengeDto)
  @ApiOkResponse({
    description:
      'Signed in (`{ user }`; Set-Cookie: auth_session); or, for an account with two-factor authentication on, the password is set and ' +
      '`{ twoFactorRequired: true, challenge }` answers without a cookie: `POST /auth/login/2fa` signs in with it and a code',
    schema: { oneOf: [{ $ref: getSchemaPath(UserResponseDto) }, { $ref: getSchemaPath(TwoFactorChallengeDto) }] },
  })
  @ApiErrors({
    400: 'INVALID_TOKEN: unknown, used or expired token; INVALID_REQUEST: a password shorter than 8 or longer than 128 characters',
    403: 'ACCOUNT_BANNED: the account is banned (the token stays unused)',
    503: 'SERVICE_UNAVAILABLE: too many passwords being hashed at this moment; `Retry-After: 1`',
  })
  async resetPassword(@Body() body: ResetPasswordDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponseDto | TwoFactorChallengeDto> {
    const reset = await this.resets.reset(body.token, body.password, userAgentOf(req));
    if ('challenge' in reset) return { twoFactorRequired: true, challenge: reset.challenge };
    res.setHeader('Set-Cookie', authCookie(reset.token, this.secure));
    return { user: await this.accounts.user(reset.accountId) };
  }
}
