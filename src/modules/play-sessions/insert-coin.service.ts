import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { KeptLoginPlayer } from '../../http/account-auth';
import { RateLimiter } from '../rate-limits';
import { WalletFrozenError, WalletService } from '../wallet';
import { WebhookOutbox } from '../webhooks';
import { ACTIVE_PLAY_READ, PlayActionService } from './play-action.service';
import type { PlaySessionCore } from './play-session.parts';

export interface InsertCoinAnswer {
  insertionId: string;
  creditsGranted: 1;
  coinsSpent: number;
  balance: number;
  testMode: boolean;
  replayed: boolean;
}

/** The event's player ref and time, read only when the event is written: the insertion's created_at is the transaction's now(). */
const INSERTION_CREATED_ENRICH = `jsonb_build_object('playerRef', (SELECT player_ref FROM play_sessions WHERE id = {0}::uuid), 'createdAt', webhook_time(now()))`;

/**
 * Buys one credit (spec §4.2) as a play action (PlayActionService: the key's claim with the play
 * session's read and the login state; 401, replay, 404/410, test mode). Its own work: the wallet's
 * freeze as read with the claim (403 WALLET_FROZEN; the debit statement refuses a freeze that
 * landed since), the rate limit (429; §16.4/§16.18: a 402 counts, a replay, 409 or 429 does not),
 * then one statement for the debit with the insertion, the earning, the stored answer and the
 * webhook event (402; the event only for a developer with a subscribed endpoint, CONTRACT §21).
 * Four round trips with BEGIN and COMMIT: docs/performance.md.
 *
 * Test mode debits and stores nothing (no insertion, no key) but is rate limited like a paid
 * session, so a developer previewing the game sees the same 429 behaviour players will.
 */
@Injectable()
export class InsertCoinService {
  constructor(
    private readonly play: PlayActionService,
    private readonly limits: RateLimiter,
    private readonly wallets: WalletService,
    private readonly webhooks: WebhookOutbox,
  ) {}

  insertCoin(player: KeptLoginPlayer, sessionId: string, body: { idempotencyKey: string }): Promise<InsertCoinAnswer> {
    const walletId = player.walletId;
    // Both rules in one step: an attempt refused by either is counted by neither (§16.4).
    const consume = (session: PlaySessionCore) => this.limits.consume({ throttler: 'insert-coin-burst', tracker: session.id }, { throttler: 'insert-coin-minute', tracker: session.id });
    return this.play.run<PlaySessionCore, InsertCoinAnswer>(player, sessionId, {
      name: 'insert-coin',
      read: ACTIVE_PLAY_READ,
      idempotencyKey: body.idempotencyKey,
      body,
      test: async ({ session }) => {
        await consume(session);
        const balance = await this.wallets.balance(walletId);
        return { insertionId: `test_${randomBytes(16).toString('hex')}`, creditsGranted: 1 as const, coinsSpent: 0, balance, testMode: true, replayed: false };
      },
      paid: async ({ session, walletFrozen, answer: ride }) => {
        // A frozen wallet (CONTRACT §19) is refused before the limit, as read with the claim: a 403
        // is no attempt, and the money statement refuses a freeze that came in between.
        if (walletFrozen) throw new WalletFrozenError();
        const attempt = await consume(session);
        const insertionId = randomUUID();
        const coinsSpent = session.coinsPerCredit;
        // Stored with the key by the money statement itself, `balance` filled in from the debit.
        const answer = { insertionId, creditsGranted: 1 as const, coinsSpent, balance: 0, testMode: false, replayed: false };
        const { balance } = await this.wallets
          .payForInsertion(
            { walletId, coins: coinsSpent, insertionId, playSessionId: session.id, gameId: session.gameId, playerId: session.playerId, developerId: session.developerId },
            ride(answer),
            // CONTRACT §21 insertion.created, written with the payment only when the developer has a subscribed endpoint.
            this.webhooks.rider({
              developerId: session.developerId,
              type: 'insertion.created',
              data: { insertionId, gameId: session.gameId, sessionId: session.id, coins: coinsSpent },
              enrich: { sql: INSERTION_CREATED_ENRICH, values: [session.id] },
            }),
          )
          .catch(async (error: unknown) => {
            // A freeze that landed after the claim's read, refused by the debit: no attempt either (§19.1).
            if (error instanceof WalletFrozenError) await this.limits.release(attempt);
            throw error;
          });
        answer.balance = balance;
        return answer;
      },
    });
  }
}
