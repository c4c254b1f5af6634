import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import type { PlayerContext } from '../../http/account-auth';
import { IdempotencyService, UnkeptAnswer } from '../idempotency';
import { RateLimiter } from '../rate-limits';
import { WalletFrozenError } from '../wallet';
import { WalletService } from '../wallet';
import { LoginState, readWithLoginState, requireLiveLogin, splitLoginState } from '../identity';
import { PlaySessionRecord, PlaySessionsService } from './play-sessions.service';

type PlaySessionWithLoginState = Partial<PlaySessionRecord> & LoginState;

export interface InsertCoinAnswer {
  insertionId: string;
  creditsGranted: 1;
  coinsSpent: number;
  balance: number;
  testMode: boolean;
  replayed: boolean;
}

/**
 * Buys one credit (spec §4.2), in the order of CONTRACT §16.17 and §7, in one transaction: claim
 * the idempotency key (a replay or key conflict is answered here, before anything else) together
 * with the play session's read (404, 410); the rate limit (429; §16.4/§16.18: a 402 counts, a
 * replay, 409 or 429 does not); one statement for the debit with the insertion, the earning and
 * the stored answer (402). Four round trips with BEGIN and COMMIT (five when the login session is
 * read too): docs/performance.md. The route trusts a login session its instance kept
 * (PlayerAuth({ sessionCheckedByStatement: true })): the claim's statement also reads whether the
 * login session is still live (401 first, a replay included) and whether the wallet is frozen
 * (CONTRACT §19), and the debit statement refuses a freeze that landed since (403 WALLET_FROZEN
 * either way).
 *
 * Test mode debits and stores nothing (no insertion, no key) but is rate limited like a paid
 * session, so a developer previewing the game sees the same 429 behaviour players will.
 */
@Injectable()
export class InsertCoinService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly limits: RateLimiter,
    private readonly sessions: PlaySessionsService,
    private readonly wallets: WalletService,
  ) {}

  async insertCoin(player: Pick<PlayerContext, 'accountId' | 'playerId' | 'walletId' | 'loginSessionId'>, sessionId: string, body: { idempotencyKey: string }): Promise<InsertCoinAnswer> {
    const playerId = player.playerId;
    const request = {
      caller: `account:${player.accountId}` as const,
      key: body.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('insert-coin', sessionId, body),
      // The route trusts a kept login session: 401 when it is over, before a replay is answered.
      checkCaller: requireLiveLogin,
      checkRead: (row: PlaySessionWithLoginState | undefined) => this.sessions.checkActive(playerId, splitLoginState<PlaySessionRecord>(row!).found),
    };
    const walletId = player.walletId;
    const read = readWithLoginState(this.sessions.activeRead(sessionId), player.loginSessionId);
    const result = await this.uow.run(() =>
      this.idempotency.executeWith<InsertCoinAnswer, PlaySessionWithLoginState>(request, 200, read, async (row, store) => {
        const { found, walletFrozen } = splitLoginState<PlaySessionRecord>(row!);
        const session = this.sessions.checkActive(playerId, found);
        // A frozen wallet (CONTRACT §19) is refused before the limit, as read with the claim: a 403
        // is no attempt, and the money statement refuses a freeze that came in between.
        if (walletFrozen) throw new WalletFrozenError();
        // Both rules in one step: an attempt refused by either is counted by neither (§16.4).
        const attempt = await this.limits.consume({ throttler: 'insert-coin-burst', tracker: session.id }, { throttler: 'insert-coin-minute', tracker: session.id });
        if (session.testMode) {
          await this.sessions.touch(session.id);
          const balance = await this.wallets.balance(walletId);
          return new UnkeptAnswer({ insertionId: `test_${randomBytes(16).toString('hex')}`, creditsGranted: 1 as const, coinsSpent: 0, balance, testMode: true, replayed: false });
        }
        const insertionId = randomUUID();
        const coinsSpent = session.coinsPerCredit;
        // Stored with the key by the money statement itself, `balance` filled in from the debit.
        const answer = { insertionId, creditsGranted: 1 as const, coinsSpent, balance: 0, testMode: false, replayed: false };
        const { balance } = await this.wallets
          .payForInsertion(
            { walletId, coins: coinsSpent, insertionId, playSessionId: session.id, gameId: session.gameId, playerId: session.playerId, developerId: session.developerId },
            store.ride(answer),
          )
          .catch(async (error: unknown) => {
            // A freeze that landed after the claim's read, refused by the debit: no attempt either (§19.1).
            if (error instanceof WalletFrozenError) await this.limits.release(attempt);
            throw error;
          });
        answer.balance = balance;
        return answer;
      }),
    );
    return result.body;
  }
}
