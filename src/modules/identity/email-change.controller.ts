import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { h } from 'preact';
import { AccountContext, CurrentAccount, OptionalAccount, PublicSameOrigin, SignedIn } from '../../http/account-auth';
import { ApiErrors, ERROR_SCHEMA_REF } from '../../http/error-responses';
import { Public } from '../../http/public.decorator';
import { sendPage } from '../../http/pages/layout';
import { ApiRateLimited, clientAddress } from '../rate-limits';
import { ChangeEmailDto, ConfirmEmailDto, EmailChangeRequestedDto } from './email-change.dto';
import { EmailLinkInvalidPage, EmailTakenMeanwhilePage } from './email-change-pages';
import { EmailChangeService } from './email-change.service';
import { UserResponseDto } from './identity.dto';
import { EmailTakenError, InvalidEmailChangeTokenError } from './identity.errors';

const HTML = { 'text/html': { schema: { type: 'string' } } };

/** Changing the e-mail address (CONTRACT §20): the request from settings, and the mailed link that confirms it. */
@ApiTags('accounts')
@Controller()
export class EmailChangeController {
  constructor(private readonly changes: EmailChangeService) {}

  @Post('api/me/email')
  @SignedIn()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Change the e-mail address (mails a confirmation link to the new one)',
    description:
      'Checks `currentPassword` first (it counts as a login attempt on the current e-mail, `RATE_LIMIT_LOGIN_PER_EMAIL`: a wrong ' +
      'password stays counted), then the new address. A link `PUBLIC_ORIGIN/auth/confirm-email?token=<token>` (single use, 24 hours) ' +
      'goes to the new address and a notice without a link to the current one; a newer request makes older unused links invalid. ' +
      'The current e-mail stays the login until the link is followed.',
  })
  @ApiAcceptedResponse({ type: EmailChangeRequestedDto, description: 'Accepted: the link went to `pendingEmail`' })
  @ApiErrors({
    400: 'INVALID_REQUEST: `email` not an e-mail address (at most 254 characters), `currentPassword` missing or over 128 characters',
    403: 'WRONG_PASSWORD: `currentPassword` is wrong (counted as a failed login)',
    409: 'EMAIL_TAKEN: an account has this e-mail address (this one included); told only after the password matched',
    503: 'SERVICE_UNAVAILABLE: too many passwords being checked at this moment; `Retry-After: 1`',
  })
  @ApiRateLimited(
    'too many failed logins for the current e-mail (`RATE_LIMIT_LOGIN_PER_EMAIL`, default 10 per 15 minutes); or the mail limits ' +
      'the verification mails share: per account (`RATE_LIMIT_MAIL_PER_ACCOUNT`, default 5 per hour), per client address ' +
      '(`RATE_LIMIT_MAIL_PER_ADDRESS`, default 30 per hour) and for everyone (`RATE_LIMIT_MAIL_GLOBAL`, default 1000 per hour), each ' +
      'request counting once; beyond them nothing changes (no mail, the earlier link stays valid)',
  )
  requestChange(@CurrentAccount() auth: AccountContext, @Body() body: ChangeEmailDto, @Req() req: Request): Promise<EmailChangeRequestedDto> {
    return this.changes.request(auth, body.email, body.currentPassword, clientAddress(req));
  }

  @Post('auth/confirm-email')
  @PublicSameOrigin()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm a new e-mail address with the mailed token',
    description: 'The new address becomes the account\'s e-mail, verified; the token is used up. Nobody is signed in or out.',
  })
  @ApiOkResponse({ type: UserResponseDto, description: 'The account with its new e-mail' })
  @ApiErrors({
    400: 'INVALID_TOKEN: unknown, used or expired token; INVALID_REQUEST: `token` missing or over 128 characters',
    409: 'EMAIL_TAKEN: another account took the address after the link was sent (the token stays unused)',
  })
  async confirm(@Body() body: ConfirmEmailDto): Promise<UserResponseDto> {
    return { user: await this.changes.confirm(body.token) };
  }

  @Get('auth/confirm-email')
  @Public()
  @ApiOperation({
    summary: 'The mailed e-mail-change link',
    description: 'Confirms the new address as `POST /auth/confirm-email` does, then redirects (303) to /me/settings. Nobody is signed in or out.',
  })
  @ApiQuery({ name: 'token', required: true, description: 'The token from the confirmation mail' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 303, description: 'Confirmed: redirect to /me/settings', headers: { Location: { schema: { type: 'string' } } } })
  @ApiResponse({
    status: 400,
    description: 'An HTML page saying the link is invalid or expired (unknown, used or expired token); INVALID_REQUEST as JSON for a malformed request',
    content: { ...HTML, 'application/json': { schema: ERROR_SCHEMA_REF } },
  })
  @ApiResponse({ status: 409, description: 'An HTML page: another account took the address after the link was sent', content: HTML })
  async confirmLink(@Query('token') token: unknown, @OptionalAccount() viewer: AccountContext | undefined, @Res() res: Response): Promise<void> {
    try {
      await this.changes.confirm(typeof token === 'string' ? token : '');
    } catch (error) {
      if (error instanceof InvalidEmailChangeTokenError) return sendPage(res, h(EmailLinkInvalidPage, { viewer: viewer ?? null }), { status: 400 });
      if (error instanceof EmailTakenError) return sendPage(res, h(EmailTakenMeanwhilePage, { viewer: viewer ?? null }), { status: 409 });
      throw error;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, '/me/settings');
  }
}
