import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { AUTH_KIND, IS_PUBLIC } from '../../src/http/public.decorator';
import { ApiKeyAuth, CurrentApiKey } from '../../src/modules/developer-portal/api-key.decorators';
import {
  AccountContext,
  CurrentAccount,
  CurrentAdmin,
  CurrentPlayer,
  OptionalAccount,
  PlayerAuth,
  PlayerContext,
  SignedIn,
} from '../../src/http/account-auth';
import { Public } from '../../src/http/public.decorator';
import { createTestApp, TestApp } from '../support/app';
import { AuthProbeModule } from '../support/auth-probe';
import { createWorldApp, signUpPlayer } from '../support/factories';
import { registeredRoutes } from '../support/routes';

interface Route {
  method: string;
  path: string;
  controller: string;
  handler: string;
  public: boolean;
  authKind: string | undefined;
}

/** Test-only controllers: routes whose author forgot the auth decorator, next to a public one. */
@Controller('__unmarked')
class UnmarkedController {
  @Get()
  read(): { leaked: true } {
    return { leaked: true };
  }

  @Post()
  @HttpCode(200)
  write(@Body() body: unknown): { leaked: unknown } {
    return { leaked: body };
  }

  @Get('public')
  @Public()
  open(): { open: true } {
    return { open: true };
  }
}

@Module({ controllers: [UnmarkedController] })
class UnmarkedModule {}

const TEST_CONTROLLERS = new Set(['UnmarkedController', 'AuthProbeController']);

/** Every route of every controller Nest registered, with its auth metadata (handler first, then class). */
function routesOf(t: TestApp): Route[] {
  return registeredRoutes(t).map((route) => ({
    method: route.method,
    path: route.routePath,
    controller: route.controller,
    handler: route.handler,
    public: route.metadata<boolean>(IS_PUBLIC) === true,
    authKind: route.metadata<{ kind: string }>(AUTH_KIND)?.kind,
  }));
}

/** Path parameters filled with a valid-looking id, so routing and validation are not what answers. */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z]+/g, (name) => (name === ':slug' ? 'some-game' : name === ':key' ? 'some-key' : '00000000-0000-4000-8000-000000000000'));
}

function call(t: TestApp, route: Route) {
  const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  return t.http()[verb](concrete(route.path)).send({});
}

describe('the global AuthGuard: every route is public or authenticated', () => {
  let t: TestApp;
  let routes: Route[];
  let featureRoutes: Route[];

  beforeAll(async () => {
    t = await createWorldApp({ imports: [UnmarkedModule, AuthProbeModule] });
    routes = routesOf(t);
    featureRoutes = routes.filter((r) => !TEST_CONTROLLERS.has(r.controller));
  });
  afterAll(async () => t.close());

  it('finds the routes (the walk itself works)', () => {
    const paths = featureRoutes.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /auth/login', 'GET /api/me', 'POST /api/portal/keys', 'GET /api/games/:slug', 'GET /health/live']));
    expect(featureRoutes.length).toBeGreaterThan(30);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /__unmarked', 'POST /__unmarked']));
  });

  it('has no feature route with neither an auth decorator nor @Public()', () => {
    const bare = featureRoutes.filter((r) => !r.public && !r.authKind).map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    expect(bare).toEqual([]);
  });

  it('answers 401 UNAUTHENTICATED on every route that is not @Public() when no credentials are sent', async () => {
    const guarded = routes.filter((r) => !r.public);
    expect(guarded.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const route of guarded) {
      const res = await call(t, route);
      if (res.status !== 401 || res.body.error !== 'UNAUTHENTICATED') failures.push(`${route.method} ${route.path}: ${res.status} ${res.body.error}`);
      if (route.authKind === 'api-key' && res.headers['www-authenticate'] !== 'Bearer realm="arcade"') {
        failures.push(`${route.method} ${route.path}: WWW-Authenticate ${res.headers['www-authenticate']}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a route added without any auth decorator (fail closed), GET and POST, and runs nothing', async () => {
    const read = await t.http().get('/__unmarked').expect(401);
    expect(read.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
    const write = await t.http().post('/__unmarked').send({ a: 1 }).expect(401);
    expect(write.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
    // A signed-in caller is refused too: the route has no requirement a cookie could meet.
    const player = await signUpPlayer(t, { verified: true });
    expect((await t.http().get('/__unmarked').set('Cookie', player.cookie).expect(401)).body.error).toBe('UNAUTHENTICATED');
    // Its @Public() neighbour answers, so the 401 comes from the missing decorator, not the module.
    expect((await t.http().get('/__unmarked/public').expect(200)).body).toEqual({ open: true });
  });

  it('lets every @Public() route answer an anonymous request without 401', async () => {
    const failures: string[] = [];
    for (const route of featureRoutes.filter((r) => r.public)) {
      const res = await call(t, route);
      if (res.status === 401 || res.status >= 500) failures.push(`${route.method} ${route.path}: ${res.status} ${res.body?.error}`);
    }
    expect(failures).toEqual([]);
  });

  it('@OptionalAccount() on a public route gives the signed-in account, or undefined, never a 401', async () => {
    expect((await t.http().get('/__probe/optional').expect(200)).body).toEqual({ account: null });
    expect((await t.http().get('/__probe/optional').set('Cookie', 'auth_session=garbage').expect(200)).body).toEqual({ account: null });
    const player = await signUpPlayer(t, { verified: true });
    const res = await t.http().get('/__probe/optional').set('Cookie', player.cookie).expect(200);
    expect(res.body.account).toMatchObject({ accountId: player.accountId, playerId: player.playerId });
  });
});

/** Each handler reads a context its route does not establish, or is public and authenticated at once. */
@Controller('__misused')
class MisusedController {
  @Get('player-on-signed-in')
  @SignedIn()
  playerOnSignedIn(@CurrentPlayer() player: PlayerContext): string {
    return player.playerId;
  }

  @Get('admin-on-player')
  @PlayerAuth()
  adminOnPlayer(@CurrentAdmin() admin: AccountContext): string {
    return admin.accountId;
  }

  @Get('account-on-api-key')
  @ApiKeyAuth()
  accountOnApiKey(@CurrentAccount() account: AccountContext): string {
    return account.accountId;
  }

  @Get('api-key-on-public')
  @Public()
  apiKeyOnPublic(@CurrentApiKey() key: unknown): unknown {
    return key;
  }

  @Get('optional-on-authenticated')
  @SignedIn()
  optionalOnAuthenticated(@OptionalAccount() account: AccountContext | undefined): unknown {
    return account;
  }

  @Get('public-and-player')
  @Public()
  @PlayerAuth()
  publicAndPlayer(): string {
    return 'both';
  }
}

@Module({ controllers: [MisusedController] })
class MisusedModule {}

describe('start-up refuses a misused auth decorator', () => {
  it('names every handler whose parameter decorator does not match its route, and does not start', async () => {
    const start = createTestApp({ imports: [MisusedModule] });
    await expect(start).rejects.toThrow(/Route auth misconfigured/);
    const message = await start.catch((error: Error) => error.message);
    expect(message).toContain('MisusedController.playerOnSignedIn uses @CurrentPlayer()');
    expect(message).toContain('MisusedController.adminOnPlayer uses @CurrentAdmin()');
    expect(message).toContain('MisusedController.accountOnApiKey uses @CurrentAccount()');
    expect(message).toContain('MisusedController.apiKeyOnPublic uses @CurrentApiKey()');
    expect(message).toContain('MisusedController.optionalOnAuthenticated uses @OptionalAccount() but is not @Public()');
    expect(message).toContain('MisusedController.publicAndPlayer is both @Public() and requires player');
  });
});
