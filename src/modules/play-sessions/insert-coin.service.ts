import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AuthContext } from '../identity/auth.decorators';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { INSERT_COIN_RULES, RateLimitService } from '../rate-limits/rate-limit.service';
import { WalletService } from '../wallet/wallet.service';
import type { PlaySessionRecord } from './play-session.repository';
import { PlaySessionsService } from './play-sessions.service';

export interface InsertCoinAnswer {
  insertionId: string;
  creditsGranted: 1;
  coinsSpent: number;
  balance: number;
  testMode: boolean;
  replayed: boolean;
}

/** A test-mode play session turned up after the key was claimed: the claim is rolled back, nothing is stored. */
class TestModeAttempt {
  constructor(readonly session: PlaySessionRecord) {}
}

/**
 * Buys one credit (spec §4.2), in the order of CONTRACT §16.17 and §7, in one transaction: claim
 * the idempotency key (a replay or key conflict is answered here, before anything else); load the
 * play session (404, 410); the rate limit (429; §16.4/§16.18: a 402 counts, a replay, 409 or 429
 * does not); the debit with the insertion and the earning (402); the stored answer. Five round
 * trips with the login session: docs/performance.md.
 *
 * Test mode debits and stores nothing (no insertion, no key) but is rate limited like a paid
 * session, so a developer previewing the game sees the same 429 behaviour players will.
 */
@Injectable()
export class InsertCoinService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly rateLimits: RateLimitService,
    private readonly sessions: PlaySessionsService,
    private readonly wallets: WalletService,
  ) {}

  async insertCoin(auth: AuthContext, sessionId: string, body: { idempotencyKey: string }): Promise<InsertCoinAnswer> {
    const request = {
      caller: `account:${auth.accountId}` as const,
      key: body.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('insert-coin', sessionId, body),
    };
    const walletId = auth.walletId!;
    try {
      const result = await this.uow.run(() =>
        this.idempotency.execute<InsertCoinAnswer>(request, 200, async () => {
          const session = await this.sessions.requireActive(auth.playerId!, sessionId);
          if (session.testMode) throw new TestModeAttempt(session);
          await this.rateLimits.enforce(`insert-coin:${session.id}`, INSERT_COIN_RULES);
          const insertionId = randomUUID();
          const { balance } = await this.wallets.payForInsertion({
            walletId,
            coins: session.coinsPerCredit,
            insertionId,
            playSessionId: session.id,
            gameId: session.gameId,
            playerId: session.playerId,
            developerId: session.developerId,
          });
          return { insertionId, creditsGranted: 1, coinsSpent: session.coinsPerCredit, balance, testMode: false, replayed: false };
        }),
      );
      return result.body;
    } catch (error) {
      if (!(error instanceof TestModeAttempt)) throw error;
      await this.rateLimits.enforce(`insert-coin:${error.session.id}`, INSERT_COIN_RULES);
      const [balance] = await Promise.all([this.wallets.balance(walletId), this.sessions.touch(error.session.id)]);
      return { insertionId: `test_${randomBytes(16).toString('hex')}`, creditsGranted: 1, coinsSpent: 0, balance, testMode: true, replayed: false };
    }
  }
}
