/**
 * A test-only module with one route per auth decorator, so tests can check the guards' answers and
 * their order on their own, independent of any feature endpoint. Each route reads its caller with
 * the typed decorator its requirement guarantees.
 */
import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { Public } from '../../src/http/public.decorator';
import { ApiKeyAuth, ApiKeyContext, CurrentApiKey } from '../../src/modules/developer-portal/api-key.decorators';
import {
  AccountContext,
  AdminAuth,
  AdminContext,
  CurrentAccount,
  CurrentAdmin,
  CurrentDeveloper,
  CurrentPlayer,
  DeveloperAuth,
  DeveloperContext,
  OptionalAccount,
  PlayerAuth,
  PlayerContext,
  SignedIn,
} from '../../src/http/account-auth';

@Controller('__probe')
class AuthProbeController {
  @Post('signed-in')
  @SignedIn()
  @HttpCode(200)
  signedIn(@CurrentAccount() account: AccountContext): AccountContext {
    return account;
  }

  @Get('signed-in')
  @SignedIn()
  signedInRead(@CurrentAccount() account: AccountContext): AccountContext {
    return account;
  }

  @Post('player')
  @PlayerAuth()
  @HttpCode(200)
  player(@CurrentPlayer() player: PlayerContext): PlayerContext {
    return player;
  }

  @Post('developer')
  @DeveloperAuth()
  @HttpCode(200)
  developer(@CurrentDeveloper() developer: DeveloperContext): DeveloperContext {
    return developer;
  }

  @Post('admin')
  @AdminAuth()
  @HttpCode(200)
  admin(@CurrentAdmin() admin: AdminContext): AdminContext {
    return admin;
  }

  @Get('optional')
  @Public()
  optional(@OptionalAccount() account: AccountContext | undefined): { account: AccountContext | null } {
    return { account: account ?? null };
  }

  @Get('api-key')
  @ApiKeyAuth()
  apiKey(@CurrentApiKey() key: ApiKeyContext): ApiKeyContext {
    return key;
  }

  @Post('api-key-live')
  @ApiKeyAuth({ live: true })
  @HttpCode(200)
  liveKey(@CurrentApiKey() key: ApiKeyContext): ApiKeyContext {
    return key;
  }
}

@Module({ controllers: [AuthProbeController] })
export class AuthProbeModule {}
