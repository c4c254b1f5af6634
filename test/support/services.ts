import { randomBytes } from 'node:crypto';
import type { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Pool } from 'pg';
import { AppModule, appDeclarations } from '../../src/app.module';
import { loadConfig } from '../../src/config';
import { DatabaseConnectivity } from '../../src/database/connectivity';
import { createDataSource } from '../../src/database/data-source';
import type { AuditActor } from '../../src/modules/audit/audit.rules';
import { DevelopersService } from '../../src/modules/developer-portal/developers.service';
import { GamesService } from '../../src/modules/developer-portal/games.service';
import { AccountsService } from '../../src/modules/identity/accounts.service';
import { isPlayer, PlayerContext } from '../../src/http/account-auth';
import { LoginSessionService } from '../../src/modules/identity/login-session.service';
import { PlaySessionsService } from '../../src/modules/play-sessions/play-sessions.service';
import { AdminCreditsService } from '../../src/modules/wallet/admin-credits.service';
import { TestClock } from './clock';
import { TEST_LIMITS } from './app';
import { createTestDatabase, testPool } from './database';
import { asAppRole } from './global-setup';

export interface TestServices {
  /** The application's providers, as Nest wired them (no HTTP listener, no controllers called). */
  get<T>(type: Type<T>): T;
  /** Read the database back (assertions only). */
  db: Pool;
  databaseUrl: string;
  /** The rate limits' clock: `advance(ms)` instead of sleeping through a window. */
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * The service-level tier: the application's Nest context on a fresh copy of the migrated template
 * database, with the same configuration as the in-process test apps but no HTTP server, no
 * request pipeline and no migrations run (the template has them). Use cases are called directly,
 * for the rules that need no route: money, idempotency, the ledger chain. Much cheaper than
 * createTestApp(): no express, no OpenAPI document, no request round trips.
 */
export async function createTestServices(options: { env?: Record<string, string> } = {}): Promise<TestServices> {
  const databaseUrl = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: '10',
    ...TEST_LIMITS,
    ...options.env,
    DATABASE_URL: asAppRole(databaseUrl),
  });
  const connectivity = new DatabaseConnectivity();
  const dataSource = createDataSource(config.databaseUrl!, config, { onPoolError: (error: unknown) => connectivity.failed(error) });
  await dataSource.initialize();
  const clock = new TestClock();
  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(AppModule.register(config, { dataSource, connectivity }, appDeclarations(), [], clock), { logger: false, abortOnError: false });
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  const db = testPool(databaseUrl);
  return {
    get: <T>(type: Type<T>) => context.get(type, { strict: false }),
    db,
    databaseUrl,
    clock,
    async close() {
      await context.close();
      if (dataSource.isInitialized) await dataSource.destroy();
      await db.end();
    },
  };
}

/**
 * Builds a world through the use cases themselves (no HTTP): the bootstrap admin, verified and
 * linked players with their login context, a developer with a published game, admin credits.
 * Use with `createTestServices({ env: WORLD_ENV })`.
 */
export const WORLD_ENV = { ADMIN_EMAIL: 'admin@arcade.test', ADMIN_PASSWORD: 'admin-password-for-tests' };

let sequence = 0;
function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${randomBytes(3).toString('hex')}`;
}

export class ServiceWorld {
  private adminPromise?: Promise<AuditActor>;

  constructor(private readonly s: TestServices) {}

  /** The bootstrap admin as an audit actor. */
  admin(): Promise<AuditActor> {
    this.adminPromise ??= this.s
      .get(AccountsService)
      .logIn(WORLD_ENV.ADMIN_EMAIL, WORLD_ENV.ADMIN_PASSWORD, '127.0.0.1')
      .then(({ accountId }) => ({ actorId: accountId, requestId: null }));
    return this.adminPromise;
  }

  /** A verified, linked player and the context its login session resolves to. */
  async player(): Promise<PlayerContext> {
    const accounts = this.s.get(AccountsService);
    const { accountId, token } = await accounts.signUp({ email: `${unique('player')}@example.test`, password: 'player-password-1', displayName: 'Player', linkPlayer: true }, '127.0.0.1');
    await accounts.verifyEmail(await this.admin(), accountId);
    const context = await this.s.get(LoginSessionService).resolve(token);
    if (!context || !isPlayer(context)) throw new Error('the signed-up player has no player context');
    return context;
  }

  /** A developer's published game (a version approved by the admin). */
  async publishedGame(options: { coinsPerCredit?: number } = {}): Promise<{ gameId: string; slug: string; developerId: string }> {
    const owner = await this.player();
    const { developer } = await this.s.get(DevelopersService).become(owner.accountId, 'Dev Studio');
    const actor = { actorId: owner.accountId, requestId: null };
    const games = this.s.get(GamesService);
    const slug = unique('game');
    const game = await games.create(developer.developerId, { slug, title: `Game ${slug}`, coinsPerCredit: options.coinsPerCredit ?? 1 });
    const version = await games.addVersion(actor, developer.developerId, game.gameId, { label: '1.0.0', entryUrl: 'https://games.example.test/index.html' });
    await games.reviewVersion(await this.admin(), version.versionId, 'approved');
    await games.publish(actor, developer.developerId, game.gameId, version.versionId);
    return { gameId: game.gameId, slug, developerId: developer.developerId };
  }

  /** Credits the player's wallet as the admin. */
  async fund(player: PlayerContext, coins: number): Promise<void> {
    await this.s.get(AdminCreditsService).credit(await this.admin(), player.accountId, { coins, reason: 'test funds', idempotencyKey: unique('fund') });
  }

  async playSession(player: PlayerContext, gameSlug: string): Promise<string> {
    return (await this.s.get(PlaySessionsService).create(player, { gameSlug })).sessionId;
  }
}
