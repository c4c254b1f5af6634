import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { AccountsService } from './accounts.service';
import { AccountContext, CurrentAccount, SignedIn } from '../../http/account-auth';
import { LinkPlayerDto, MeDto } from './identity.dto';

@ApiTags('accounts')
@Controller('api/me')
export class MeController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: 'The signed-in account, its level and balance' })
  @ApiOkResponse({ type: MeDto })
  me(@CurrentAccount() account: AccountContext): Promise<MeDto> {
    return this.accounts.me(account.accountId);
  }

  @Post('player')
  @SignedIn()
  @HttpCode(201)
  @ApiOperation({ summary: 'Link a player profile and wallet to the account', description: '201 when created; 200 with the same profile when the account already has one.' })
  @ApiCreatedResponse({ type: MeDto, description: 'Linked' })
  @ApiOkResponse({ type: MeDto, description: 'Already linked: nothing changed' })
  @ApiErrors({ 400: 'INVALID_REQUEST' })
  async linkPlayer(@CurrentAccount() account: AccountContext, @Body() body: LinkPlayerDto, @Res({ passthrough: true }) res: Response): Promise<MeDto> {
    const { created, me } = await this.accounts.linkPlayer(account.accountId, body.displayName);
    if (!created) res.status(200);
    return me;
  }
}
