import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { AccountContext, CurrentAccount, PublicSameOrigin, SignedIn } from '../../http/account-auth';
import { ApiErrors } from '../../http/error-responses';
import { ApiRateLimited } from '../rate-limits';
import { AccountsService } from './accounts.service';
import { authCookie } from './auth-cookie';
import { UserResponseDto } from './identity.dto';
import { LoginChallengeService } from './login-challenge.service';
import { userAgentOf } from './login-session.service';
import { DisableTwoFactorDto, EnableTwoFactorDto, LogInTwoFactorDto, RecoveryCodesDto, TwoFactorSetupDto } from './two-factor.dto';
import { TwoFactorService } from './two-factor.service';

/** Two-factor authentication (CONTRACT §20): turning it on and off, and the code step of signing in. */
@ApiTags('accounts')
@Controller()
export class TwoFactorController {
  private readonly secure: boolean;

  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly challenges: LoginChallengeService,
    private readonly accounts: AccountsService,
    @Inject(CONFIG) config: Config,
  ) {
    this.secure = new URL(config.publicOrigin).protocol === 'https:';
  }

  @Post('api/me/2fa/setup')
  @SignedIn()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start setting up two-factor authentication',
    description:
      'A new TOTP secret, not in force until `POST /api/me/2fa/enable` confirms a code of it; a new setup replaces an unconfirmed one. ' +
      'This answer is the only place the secret is ever shown.',
  })
  @ApiOkResponse({ type: TwoFactorSetupDto })
  @ApiErrors({ 409: 'CONFLICT: two-factor authentication is on already' })
  setUp(@CurrentAccount() auth: AccountContext): Promise<TwoFactorSetupDto> {
    return this.twoFactor.setUp(auth);
  }

  @Post('api/me/2fa/enable')
  @SignedIn()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turn two-factor authentication on',
    description:
      'With a code of the pending secret (the current 30-second step or one either side; that step counts as used). Answers 10 ' +
      'single-use recovery codes, shown this once. A notice mail goes to the account.',
  })
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiErrors({
    400: 'INVALID_REQUEST: `code` is not 6 digits; INVALID_CODE: the code does not match the pending secret',
    409: 'CONFLICT: no pending setup (or two-factor is on already)',
  })
  async enable(@CurrentAccount() auth: AccountContext, @Body() body: EnableTwoFactorDto): Promise<RecoveryCodesDto> {
    return { recoveryCodes: await this.twoFactor.enable(auth, body.code) };
  }

  @Post('api/me/2fa/disable')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Turn two-factor authentication off',
    description:
      '`currentPassword` is checked first and counts as a login attempt on the account\'s e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`), ' +
      'then the state, then `code` (a TOTP or an unused recovery code, used up). The secret and the recovery codes are deleted; ' +
      'a notice mail goes to the account.',
  })
  @ApiNoContentResponse({ description: 'Two-factor authentication is off' })
  @ApiErrors({
    400: 'INVALID_REQUEST: `code` neither 6 digits nor a recovery code; INVALID_CODE: the code is wrong or used',
    403: 'WRONG_PASSWORD: `currentPassword` is wrong (counted as a failed login)',
    409: 'CONFLICT: two-factor authentication is off',
    503: 'SERVICE_UNAVAILABLE: too many passwords being checked at this moment; `Retry-After: 1`',
  })
  @ApiRateLimited('too many failed logins for this e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, default 10 per 15 minutes)')
  disable(@CurrentAccount() auth: AccountContext, @Body() body: DisableTwoFactorDto): Promise<void> {
    return this.twoFactor.disable(auth, body.currentPassword, body.code);
  }

  @Post('auth/login/2fa')
  @PublicSameOrigin()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Finish signing in with a two-factor code',
    description:
      'Takes the `challenge` of `POST /auth/login` (or of a password reset) and a code: a TOTP of a step not used before, or an unused ' +
      'recovery code (used up). Sets the auth_session cookie. Each wrong code counts as a failed login for the e-mail ' +
      '(`RATE_LIMIT_LOGIN_PER_EMAIL`); five wrong codes end the challenge.',
  })
  @ApiOkResponse({ type: UserResponseDto, description: 'Signed in; Set-Cookie: auth_session' })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    401: 'UNAUTHENTICATED: wrong or used code, or an unknown, expired or ended challenge',
    403: 'ACCOUNT_BANNED: the account is banned',
  })
  @ApiRateLimited('too many failed logins for this e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, default 10 per 15 minutes)')
  async logIn(@Body() body: LogInTwoFactorDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponseDto> {
    const { accountId, token } = await this.challenges.complete(body.challenge, body.code, userAgentOf(req));
    res.setHeader('Set-Cookie', authCookie(token, this.secure));
    return { user: await this.accounts.user(accountId) };
  }
}
