import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CONFIG, Config } from '../../config';
import { ApiErrors } from '../../http/error-responses';
import { AccountsService } from './accounts.service';
import { authCookie, clearedAuthCookies, readAuthToken } from './auth-cookie';
import { PublicSameOrigin } from './auth.decorators';
import { LogInDto, SignUpDto, UserResponseDto } from './identity.dto';

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

  @Post('signup')
  @PublicSameOrigin()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account and sign in', description: 'Sets the auth_session cookie. The e-mail starts unverified; a verification mail is sent.' })
  @ApiCreatedResponse({ type: UserResponseDto, description: 'Signed in; Set-Cookie: auth_session' })
  @ApiErrors({ 400: 'INVALID_REQUEST', 409: 'EMAIL_TAKEN: an account with this e-mail exists' })
  async signUp(@Body() body: SignUpDto, @Res({ passthrough: true }) res: Response): Promise<UserResponseDto> {
    const { accountId, token } = await this.accounts.signUp({ ...body, linkPlayer: body.linkPlayer ?? true });
    res.setHeader('Set-Cookie', authCookie(token, this.secure));
    return { user: await this.accounts.user(accountId) };
  }

  @Post('login')
  @PublicSameOrigin()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with e-mail and password', description: 'Sets the auth_session cookie. Rate limited per e-mail and per client address.' })
  @ApiOkResponse({ type: UserResponseDto, description: 'Signed in; Set-Cookie: auth_session' })
  @ApiErrors({ 400: 'INVALID_REQUEST', 401: 'UNAUTHENTICATED: wrong e-mail or password (one message for both)', 429: 'RATE_LIMITED: too many attempts; Retry-After' })
  async logIn(@Body() body: LogInDto, @Res({ passthrough: true }) res: Response): Promise<UserResponseDto> {
    const { accountId, token } = await this.accounts.logIn(body.email, body.password);
    res.setHeader('Set-Cookie', authCookie(token, this.secure));
    return { user: await this.accounts.user(accountId) };
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
}
