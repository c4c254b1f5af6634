import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import type { RidingWrite } from '../../database/riding-write';
import { found, SqlPart } from '../../database/sql-part';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import type { KeptLoginPlayer } from '../../http/account-auth';
import { claimedRead, ClaimedRow, IdempotencyService, UnkeptAnswer } from '../idempotency';
import { requireLiveLogin, withLoginState, WithLoginState } from '../identity';
import { ACTIVE_CORE_READ, PlaySessionCore, PlaySessionRecord } from './play-session.parts';
import { PlaySessionsService } from './play-sessions.service';

/**
 * A play session read composed once with the caller's login state and the idempotency claim (one
 * statement, one round trip): `PlayRead.of(ACTIVE_CORE_READ)` for insert-coin, scoring's target for a
 * score. The read takes `$1` the play session's id and `$2` the idle timeout, as ACTIVE_READ does.
 */
export class PlayRead<S extends PlaySessionCore> {
  private constructor(readonly part: SqlPart<ClaimedRow<WithLoginState<S>>>) {}

  static of<S extends PlaySessionCore>(read: SqlPart<S>): PlayRead<S> {
    if (read.valueCount !== 2) throw new Error('A play read takes the play session id and the idle timeout, nothing else.');
    return new PlayRead(claimedRead(withLoginState(read)));
  }
}

/** The insert-coin read: the play session alone, only the columns a payment uses. */
export const ACTIVE_PLAY_READ = PlayRead.of(ACTIVE_CORE_READ);

/** What a play action's work gets: the play session (checked: the caller's, active) and what the kept login says now. */
export interface PlayContext<S extends PlaySessionCore> {
  session: S;
  /** The wallet is frozen (CONTRACT §19), as read with the claim. */
  walletFrozen: boolean;
  /** The player's saved initials (CONTRACT §16.8), as read with the claim. */
  playerInitials: string | null;
  /** Stores `answer` with the key as one more CTE of the work's last write (`{result}` merged in). */
  answer(answer: object): RidingWrite;
  /** Moves the play session's lastSeenAt as one more CTE of the work's last write. */
  touch(): RidingWrite;
}

/** One play action: its name (the fingerprint's endpoint), the key and body, and its own work. */
export interface PlayAction<S extends PlaySessionCore, T extends { replayed: boolean }> {
  name: string;
  read: PlayRead<S>;
  idempotencyKey: string;
  /** What the fingerprint covers besides the play session's id. */
  body: unknown;
  /** A paid play session: the work, whose last write carries `ctx.answer(...)` (else it is stored after) and keeps the session alive. */
  paid(ctx: PlayContext<S>): Promise<T>;
  /** A test-mode session: the answer, stored nowhere (the key is released); the play action then keeps the session alive. */
  test(ctx: PlayContext<S>): Promise<T>;
}

/**
 * The play action (insert-coin, a player score; achievement unlock without a key): one home for
 * the protocol they share, in the order of CONTRACT §16.17 and §7, in one transaction.
 *
 * 1. One statement: claim the idempotency key, read the caller's login state (a kept login
 *    session: PlayerAuth({ sessionCheckedByStatement: true })) and the play session (`action.read`).
 * 2. 401 when the login is over (a replay included); a replay is answered; a key used with another
 *    request is 404/410 for the play session first, else 409.
 * 3. The play session checked once (404 SESSION_NOT_FOUND, 410 SESSION_EXPIRED).
 * 4. Test mode: `action.test`, the session touched, nothing kept. Otherwise `action.paid`, whose
 *    last write stores the answer and moves lastSeenAt as riders (no extra round trip).
 */
@Injectable()
export class PlayActionService {
  private readonly idleTimeoutSeconds: number;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly sessions: PlaySessionsService,
  ) {
    this.idleTimeoutSeconds = config.sessionIdleTimeoutSeconds;
  }

  async run<S extends PlaySessionCore, T extends { replayed: boolean }>(player: KeptLoginPlayer, sessionId: string, action: PlayAction<S, T>): Promise<T> {
    const { playerId } = player;
    const check = (row: WithLoginState<S>): S => this.sessions.checkActive(playerId, found<S>(row, 'id') ? row : undefined);
    const request = {
      caller: `account:${player.accountId}` as const,
      key: action.idempotencyKey,
      fingerprint: this.idempotency.fingerprint(action.name, sessionId, action.body),
      checkCaller: (row: WithLoginState<S> | undefined) => requireLiveLogin(loginRow(row)),
      checkRead: (row: WithLoginState<S> | undefined) => check(loginRow(row)),
    };
    const values = [isUuid(sessionId) ? sessionId : null, this.idleTimeoutSeconds, player.loginSessionId];
    const result = await this.uow.run(() =>
      this.idempotency.executeWith<T, WithLoginState<S>>(request, 200, { part: action.read.part, values }, async (claimed, store) => {
        const row = loginRow(claimed);
        const session = check(row);
        const ctx: PlayContext<S> = {
          session,
          walletFrozen: row.walletFrozen === true,
          playerInitials: row.playerInitials,
          answer: (answer) => store.ride(answer),
          touch: () => this.sessions.touchRider(session.id),
        };
        if (!session.testMode) return action.paid(ctx);
        const answer = await action.test(ctx);
        // The stored test-mode session is kept alive like any other (CONTRACT §6, §16.11).
        await this.sessions.touch(session.id);
        return new UnkeptAnswer(answer);
      }),
    );
    return result.body;
  }

  /**
   * A play action without an idempotency key (achievement unlock): the play session checked once
   * (404, 410), then `paid` or `test` as its mode says, then the session kept alive.
   */
  runUnkeyed<T>(playerId: string, sessionId: string, action: { paid(session: PlaySessionRecord): Promise<T>; test(session: PlaySessionRecord): Promise<T> }): Promise<T> {
    return this.uow.run(async () => {
      const session = await this.sessions.requireActive(playerId, sessionId);
      const answer = session.testMode ? await action.test(session) : await action.paid(session);
      await this.sessions.touch(session.id);
      return answer;
    });
  }
}

/** The login state read always answers a row (its LEFT JOINs hang off `SELECT 1`). */
function loginRow<R>(row: R | undefined): R {
  if (!row) throw new Error('The login state read answered no row.');
  return row;
}
