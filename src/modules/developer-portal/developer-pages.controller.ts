import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sendNoncePage } from '../../http/html-page';
import { Public } from '../../http/public.decorator';
import { readAuthToken } from '../identity/auth-cookie';
import { LoginSessionService } from '../identity/login-session.service';
import { keysPage } from './keys-page';

/** HTML pages of the developer portal; their scripts use the /api/portal endpoints with the cookie. */
@ApiTags('developer portal')
@Controller('developer')
export class DeveloperPagesController {
  constructor(private readonly loginSessions: LoginSessionService) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'The developer portal (redirects to its key page)' })
  @ApiResponse({ status: 302, description: 'Redirect to /developer/keys' })
  portal(@Res() res: Response): void {
    res.redirect(302, '/developer/keys');
  }

  @Get('keys')
  @Public()
  @ApiOperation({
    summary: 'The API key page (HTML)',
    description: 'Signed out: redirects to the login page. Otherwise offers to become a developer, or creates, lists and revokes keys.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiResponse({ status: 302, description: 'Signed out: redirect to /auth/login?next=/developer/keys' })
  async keys(@Req() req: Request, @Res() res: Response): Promise<void> {
    const auth = await this.loginSessions.resolve(readAuthToken(req));
    if (!auth) return res.redirect(302, '/auth/login?next=%2Fdeveloper%2Fkeys');
    const state = !auth.emailVerified ? 'unverified' : auth.developerId ? 'developer' : 'not-developer';
    sendNoncePage(res, (nonce) => keysPage({ nonce, state, displayName: auth.displayName }));
  }
}
