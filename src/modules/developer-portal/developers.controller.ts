import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { AccountContext, CurrentAccount, SignedIn } from '../../http/account-auth';
import { BecomeDeveloperDto, DeveloperDto } from './developer-portal.dto';
import { DevelopersService } from './developers.service';

@ApiTags('developer portal')
@Controller('api/portal/developer')
export class DevelopersController {
  constructor(private readonly developers: DevelopersService) {}

  @Post()
  @SignedIn({ emailVerified: true })
  @HttpCode(201)
  @ApiOperation({ summary: 'Become a developer', description: 'The account gains role developer. A repeat answers 200 with the same developer, unchanged.' })
  @ApiCreatedResponse({ type: DeveloperDto, description: 'Developer created' })
  @ApiOkResponse({ type: DeveloperDto, description: 'Already a developer' })
  @ApiErrors({ 400: 'INVALID_REQUEST' })
  async become(@CurrentAccount() account: AccountContext, @Body() body: BecomeDeveloperDto, @Res({ passthrough: true }) res: Response): Promise<DeveloperDto> {
    const { developer, created } = await this.developers.become(account.accountId, body.displayName);
    if (!created) res.status(200);
    return developer;
  }
}
