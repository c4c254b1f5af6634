/**
 * A test-only module with one route per auth decorator, so tests can check the guards' answers and
 * their order on their own, independent of any feature endpoint.
 */
import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { ApiKeyAuth, ApiKeyContext, CurrentApiKey } from '../../src/modules/developer-portal/api-key.decorators';
import { AdminAuth, AuthContext, CurrentAccount, DeveloperAuth, PlayerAuth, SignedIn } from '../../src/modules/identity/auth.decorators';

@Controller('__probe')
class AuthProbeController {
  @Post('signed-in')
  @SignedIn()
  @HttpCode(200)
  signedIn(@CurrentAccount() auth: AuthContext): AuthContext {
    return auth;
  }

  @Get('signed-in')
  @SignedIn()
  signedInRead(@CurrentAccount() auth: AuthContext): AuthContext {
    return auth;
  }

  @Post('player')
  @PlayerAuth()
  @HttpCode(200)
  player(@CurrentAccount() auth: AuthContext): AuthContext {
    return auth;
  }

  @Post('developer')
  @DeveloperAuth()
  @HttpCode(200)
  developer(@CurrentAccount() auth: AuthContext): AuthContext {
    return auth;
  }

  @Post('admin')
  @AdminAuth()
  @HttpCode(200)
  admin(@CurrentAccount() auth: AuthContext): AuthContext {
    return auth;
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
