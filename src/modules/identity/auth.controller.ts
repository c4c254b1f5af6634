import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { h } from 'preact';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { ApiErrors } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { sendPage, Viewer } from '../../http/pages/layout';
import { OptionalViewer, Page, safeNext } from '../../http/pages/page-auth';
import { clientAddress } from '../rate-limits';
import { ApiRateLimited, LimitedBy } from '../rate-limits';
import { AccountsService } from './accounts.service';
import { authCookie, clearedAuthCookies, readAuthToken } from './auth-cookie';
import { AccountContext, CurrentAccount, PublicSameOrigin, SignedIn } from '../../http/account-auth';
import { InvalidVerificationTokenError } from './identity.errors';
import { LoginPage } from './login-page';
import { userAgentOf } from './login-session.service';
import { LogInDto, ResendVerificationResultDto, SignUpDto, UserResponseDto, VerifyEmailDto } from './identity.dto';
import { TwoFactorChallengeDto } from './two-factor.dto';

@ApiTags('accounts')
@Controller('auth')
export class AuthController {
  private readonly secure: boolean;

  constructor(
    private readonly accounts: AccountsService,
    @Inject(CONFIG) config: Config,
  ) {
    this.secure = new URL(config.publicOrigin).protocol === 'https:';
  }

  @Get('login')
  @Page('anyone', {
    summary: 'The sign-in page (HTML): sign in and sign up',
    description: 'After signing in or up the page goes to `next` when it is a path on this origin, else to /me. A visitor already signed in is redirected (302) there at once.',
  })
  @ApiResponse({ status: 302, description: 'Already signed in: redirect to `next` (a path on this origin) or /me', headers: { Location: { schema: { type: 'string' } } } })
  @ApiQuery({ name: 'next', required: false, description: 'Where to go after signing in: a path on this origin (anything else goes to /me)', example: '/play/coin-clicker' })
  @ApiQuery({ name: 'verified', required: false, enum: ['0', '1'], description: 'Outcome of a verification link: 1 verified, 0 invalid or expired' })
  loginPage(@OptionalViewer() viewer: Viewer | null, @Query('next') next: unknown, @Query('verified') verified: unknown, @Res() res: Response): void {
    const target = safeNext(next);
    if (viewer) return res.redirect(302, target);
    sendPage(res, h(LoginPage, { next: target, verified: verified === '0' || verified === '1' ? verified : undefined }));
  }

  @Post('signup')
  @LimitedBy(
    ['signup-per-address', 'signup-global'],
    'too many sign-ups from this client address (`RATE_LIMIT_SIGNUP_PER_ADDRESS`, default 30 per hour) or from everyone ' +
      '(`RATE_LIMIT_SIGNUP_GLOBAL`, default 300 per minute); checked before validation: every attempt counts unless refused itself',
  )
  @PublicSameOrigin()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an account and sign in',
    description:
      'Sets the auth_session cookie. The e-mail starts unverified; a verification mail is sent unless the mail limits ' +
      '(see `POST /auth/verify-email/resend`) are reached. E-mail addresses are compared after Unicode NFC normalisation and ' +
      'lower-casing of the whole address.',
  })
  @ApiCreatedResponse({ type: UserResponseDto, description: 'Signed in; Set-Cookie: auth_session' })
  @ApiErrors({ 400: 'INVALID_REQUEST', 409: 'EMAIL_TAKEN: an account with this e-mail exists', 503: 'SERVICE_UNAVAILABLE: too many passwords being hashed at this moment; `Retry-After: 1`' })
  async signUp(@Body() body: SignUpDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponseDto> {
    const { accountId, token } = await this.accounts.signUp({ ...body, linkPlayer: body.linkPlayer ?? true }, clientAddress(req), userAgentOf(req));
    res.setHeader('Set-Cookie', authCookie(token, this.secure));
    return { user: await this.accounts.user(accountId) };
  }

  @Post('login')
  @PublicSameOrigin()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with e-mail and password',
    description:
      'Sets the auth_session cookie. Failed attempts count toward two sliding-window limits, checked before the password: per client ' +
      'address (`RATE_LIMIT_LOGIN_PER_ADDRESS`, default 50 failures per 15 minutes) and per e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, ' +
      'default 10 failures per 15 minutes). Once a limit is reached every attempt answers 429, the right password included; ' +
      'a successful sign-in clears the failures of its e-mail. E-mail addresses are compared after Unicode NFC normalisation and ' +
      'lower-casing of the whole address.',
  })
  @ApiExtraModels(UserResponseDto, TwoFactorChallengeDto)
  @ApiOkResponse({
    description:
      'Signed in (`{ user }`; Set-Cookie: auth_session); or, for an account with two-factor authentication on, `{ twoFactorRequired: true, challenge }` ' +
      'and no cookie: `POST /auth/login/2fa` finishes signing in with the challenge and a code',
    schema: { oneOf: [{ $ref: getSchemaPath(UserResponseDto) }, { $ref: getSchemaPath(TwoFactorChallengeDto) }] },
  })
  @ApiErrors({
    400: 'INVALID_REQUEST',
    401: 'UNAUTHENTICATED: wrong e-mail or password (one message for both)',
    503: 'SERVICE_UNAVAILABLE: too many passwords being checked at this moment; `Retry-After: 1`',
  })
  @ApiRateLimited(
    'too many failed attempts from this client address (`RATE_LIMIT_LOGIN_PER_ADDRESS`, default 50 per 15 minutes) or for this ' +
      'e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, default 10 per 15 minutes)',
  )
  async logIn(@Body() body: LogInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponseDto | TwoFactorChallengeDto> {
    const signedIn = await this.accounts.logIn(body.email, body.password, clientAddress(req), userAgentOf(req));
    if ('challenge' in signedIn) return { twoFactorRequired: true, challenge: signedIn.challenge };
    res.setHeader('Set-Cookie', authCookie(signedIn.token, this.secure));
    return { user: await this.accounts.user(signedIn.accountId) };
  }

  @Post('logout')
  @PublicSameOrigin()
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out', description: 'Revokes the login session of the auth_session cookie (if any) and clears the cookie.' })
  @ApiNoContentResponse({ description: 'Signed out' })
  async logOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.accounts.logOut(readAuthToken(req));
    res.setHeader('Set-Cookie', clearedAuthCookies(req, this.secure));
  }

  @Post('verify-email')
  @PublicSameOrigin()
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify the e-mail address with the mailed token' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: unknown, used or expired token' })
  async verifyEmail(@Body() body: VerifyEmailDto): Promise<UserResponseDto> {
    return { user: await this.accounts.verifyWithToken(body.token) };
  }

  @Post('verify-email/resend')
  @SignedIn()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mail the verification link again',
    description:
      "Mails a new verification link to the signed-in account's address (earlier links stay valid until they expire). " +
      '`sent: false` when the e-mail is verified already (nothing is sent).',
  })
  @ApiOkResponse({ type: ResendVerificationResultDto, description: 'A new link was mailed (`sent: true`), or the e-mail is verified already' })
  @ApiRateLimited(
    'verification mails per account (`RATE_LIMIT_MAIL_PER_ACCOUNT`, default 5 per hour), per client address ' +
      '(`RATE_LIMIT_MAIL_PER_ADDRESS`, default 30 per hour) and for everyone (`RATE_LIMIT_MAIL_GLOBAL`, default 1000 per hour); ' +
      'the mail sent at sign-up counts too',
  )
  resendVerification(@CurrentAccount() auth: AccountContext, @Req() req: Request): Promise<ResendVerificationResultDto> {
    return this.accounts.resendVerification(auth.accountId, clientAddress(req));
  }

  @Get('verify-email')
  @Public()
  @ApiOperation({ summary: 'The mailed verification link', description: 'Verifies and redirects (303) to /auth/login?verified=1, or to /auth/login?verified=0 for an unknown, used or expired token.' })
  @ApiResponse({ status: 303, description: 'Redirect to the login page with the outcome', headers: { Location: { schema: { type: 'string' } } } })
  @ApiQuery({ name: 'token', required: true, description: 'The token from the verification link' })
  async verifyEmailLink(@Query('token') token: unknown, @Res() res: Response): Promise<void> {
    let verified = false;
    try {
      await this.accounts.verifyWithToken(typeof token === 'string' ? token : '');
      verified = true;
    } catch (error) {
      if (!(error instanceof InvalidVerificationTokenError)) throw error;
    }
    res.redirect(303, `/auth/login?verified=${verified ? 1 : 0}`);
  }
}
