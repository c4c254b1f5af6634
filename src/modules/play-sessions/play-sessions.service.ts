import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import type { RidingWrite } from '../../database/riding-write';
import { ForbiddenError, InvalidRequestError, NotFoundError } from '../../errors/app-error';
import { GamesService } from '../developer-portal';
import { LoginSessionService } from '../identity';
import type { PlayerContext } from '../../http/account-auth';
import { WalletService } from '../wallet';
import { WebhookOutbox } from '../webhooks';
import { UnitOfWork } from '../../database/unit-of-work';
import { accessTo, expiresAtOf, PlaySessionStatus, statusOf } from './play-session.rules';
import { InsertionRecord, PlaySessionRecord, PlaySessionRepository } from './play-session.repository';
import type { PlaySessionCore } from './play-session.parts';
import { GameUnavailableError, InsertionNotFoundError, SessionExpiredError, SessionNotFoundError } from './play-sessions.errors';
import { PlayerRefService } from './player-ref.service';

export type { InsertionRecord, PlaySessionRecord } from './play-session.repository';

export interface CreatedPlaySession {
  sessionId: string;
  gameId: string;
  coinsPerCredit: number;
  balance: number;
  testMode: boolean;
  expiresAt: Date;
  player: { ref: string; displayName: string };
}

export interface PlaySessionSummary {
  id: string;
  gameId: string;
  gameVersionId: string;
  playerRef: string;
  testMode: boolean;
  status: PlaySessionStatus;
  startedAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
  expiresAt: Date | null;
  totalCoins: number;
  /** Voided insertions too, with `voidedAt` (null unless voided); totalCoins counts only the others (CONTRACT §19.1). */
  insertions: { id: string; coins: number; createdAt: Date; voidedAt: Date | null }[];
}

export interface InsertionVerification {
  valid: true;
  insertionId: string;
  gameId: string;
  sessionId: string;
  playerRef: string;
  coins: number;
  createdAt: Date;
  voidedAt: Date | null;
}

/** session.ended's totalCoins, as the summary counts it: the play session's insertions that were not voided. */
const SESSION_TOTAL_COINS = `jsonb_build_object('totalCoins', (SELECT coalesce(sum(i.coins), 0)::int FROM insertions i
  WHERE i.play_session_id = {0}::uuid AND NOT EXISTS (SELECT 1 FROM insertion_voids v WHERE v.insertion_id = i.id)))`;

/**
 * Play sessions (spec §3.1, §4.1–4.4, CONTRACT §6): create, heartbeat, end, the developer's view,
 * and for the other play endpoints (insert-coin, scores, unlocks) `requireActive` + `touch` and
 * the insertion lookups.
 */
@Injectable()
export class PlaySessionsService {
  private readonly idleTimeoutSeconds: number;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly sessions: PlaySessionRepository,
    private readonly games: GamesService,
    private readonly wallets: WalletService,
    private readonly playerRefs: PlayerRefService,
    private readonly loginSessions: LoginSessionService,
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhookOutbox,
  ) {
    this.idleTimeoutSeconds = config.sessionIdleTimeoutSeconds;
  }

  async create(
    player: Pick<PlayerContext, 'playerId' | 'walletId' | 'developerId' | 'isAdmin'>,
    input: { gameSlug: string; preview?: boolean; versionId?: string },
  ): Promise<CreatedPlaySession> {
    const preview = input.preview === true;
    if (input.versionId !== undefined && !preview) {
      const words = 'Version id: send it only with preview set to true.';
      throw new InvalidRequestError(words, [{ field: 'versionId', problems: [words] }]);
    }
    // Only an admin or a developer can own a game: anyone else asking for a preview is refused outright.
    if (preview && !player.isAdmin && player.developerId === null) throw new ForbiddenError('Only the game\'s developer and admins can preview it.');
    const game = await this.games.findBySlug(input.gameSlug);
    if (!game) throw new GameUnavailableError();
    const access = accessTo(game, { isOwner: game.developerId === player.developerId, isAdmin: player.isAdmin }, preview);
    if (access.kind === 'forbidden') throw new ForbiddenError('Only the game\'s developer and admins can preview it.');
    if (access.kind === 'unavailable') throw new GameUnavailableError();
    const testMode = access.kind === 'test';

    let versionId: string | undefined;
    if (input.versionId !== undefined) {
      const version = await this.games.findVersion(input.versionId);
      if (!version || version.gameId !== game.id) throw new GameUnavailableError();
      versionId = version.id;
    } else {
      versionId = game.currentVersionId ?? (testMode ? (await this.games.newestPlayableVersion(game.id))?.id : undefined);
    }
    if (!versionId) throw new GameUnavailableError();

    const playerId = player.playerId;
    const playerRef = this.playerRefs.refFor(game.developerId, playerId);
    const [created, balance] = await Promise.all([
      this.sessions.insert({ gameId: game.id, gameVersionId: versionId, playerId, playerRef, testMode, coinsPerCredit: game.coinsPerCredit }),
      this.wallets.balance(player.walletId),
    ]);
    return {
      sessionId: created.id,
      gameId: game.id,
      coinsPerCredit: game.coinsPerCredit,
      balance,
      testMode,
      expiresAt: new Date(created.lastSeenAt.getTime() + this.idleTimeoutSeconds * 1000),
      player: { ref: playerRef, displayName: created.displayName },
    };
  }

  /**
   * One statement when all is well: the route trusts a kept login session (PlayerAuth({
   * sessionCheckedByStatement: true })), and the update checks that it is still live. When it
   * updated nothing, the reasons are told apart in the CONTRACT §16.17 order: 401 for a login
   * session over since, then 404 or 410 for the play session.
   */
  async heartbeat(player: Pick<PlayerContext, 'playerId' | 'loginSessionId'>, sessionId: string): Promise<{ sessionId: string; lastSeenAt: Date; expiresAt: Date }> {
    const { playerId } = player;
    const lastSeenAt = await this.sessions.heartbeat(sessionId, playerId, player.loginSessionId, this.idleTimeoutSeconds);
    if (!lastSeenAt) {
      await this.loginSessions.requireLive(player);
      await this.requireActive(playerId, sessionId);
      // Active a moment ago but not when the heartbeat ran: it timed out in between.
      throw new SessionExpiredError();
    }
    return { sessionId, lastSeenAt, expiresAt: new Date(lastSeenAt.getTime() + this.idleTimeoutSeconds * 1000) };
  }

  /**
   * Ends the play session (an idle one included, §16.2); the call that ends it records
   * `session.ended` (CONTRACT §21) in the same transaction, never for test mode or a repeat.
   */
  end(playerId: string, sessionId: string): Promise<{ sessionId: string; endedAt: Date }> {
    return this.uow.run(async () => {
      const ended = await this.sessions.end(sessionId, playerId);
      if (!ended) throw new SessionNotFoundError();
      if (ended.changed && !ended.testMode) {
        await this.webhooks.record({
          developerId: ended.developerId,
          type: 'session.ended',
          data: { sessionId, gameId: ended.gameId, playerRef: ended.playerRef, endedAt: ended.endedAt.toISOString() },
          occurredAt: ended.endedAt,
          // The summary's totalCoins (§19.1): the play session's insertions not voided.
          enrich: { sql: SESSION_TOTAL_COINS, values: [sessionId] },
        });
      }
      return { sessionId, endedAt: ended.endedAt };
    });
  }

  /**
   * The player's own play session, still active: 404 SESSION_NOT_FOUND for unknown, malformed or
   * another player's ids; 410 SESSION_EXPIRED when ended or idle past the timeout.
   */
  async requireActive(playerId: string, sessionId: string): Promise<PlaySessionRecord> {
    return this.checkActive(playerId, await this.sessions.byId(sessionId, this.idleTimeoutSeconds));
  }

  /** `requireActive` on a play session read elsewhere (the play action's claim, PlayActionService). */
  checkActive<S extends PlaySessionCore>(playerId: string, session: S | undefined): S {
    if (!session || session.playerId !== playerId) throw new SessionNotFoundError();
    if (!session.active) throw new SessionExpiredError();
    return session;
  }

  /** Moves lastSeenAt to now as a write riding on the use case's last statement (see RidingWrite). */
  touchRider(sessionId: string): RidingWrite {
    return this.sessions.touchRider(sessionId);
  }

  /** Moves lastSeenAt to now after a successful play action (joins the caller's transaction). */
  touch(sessionId: string): Promise<void> {
    return this.sessions.touch(sessionId);
  }

  /** A paid insertion of one of the developer's games; undefined for unknown, `test_` and foreign ids. */
  async insertionOfDeveloper(developerId: string, insertionId: string): Promise<InsertionRecord | undefined> {
    const insertion = await this.sessions.insertion(insertionId);
    return insertion && insertion.developerId === developerId ? insertion : undefined;
  }

  /** Spec §4.8 verification view, or 404 NOT_FOUND with `valid: false`. */
  async verifyInsertion(developerId: string, insertionId: string): Promise<InsertionVerification> {
    const insertion = await this.insertionOfDeveloper(developerId, insertionId);
    if (!insertion) throw new InsertionNotFoundError();
    return {
      valid: true,
      insertionId: insertion.id,
      gameId: insertion.gameId,
      sessionId: insertion.playSessionId,
      playerRef: insertion.playerRef,
      coins: insertion.coins,
      createdAt: insertion.createdAt,
      voidedAt: insertion.voidedAt,
    };
  }

  /** Spec §2.2 summary of one of the developer's play sessions (test-mode ones included, §16.11). */
  async summary(developerId: string, sessionId: string): Promise<PlaySessionSummary> {
    const session = await this.sessions.byId(sessionId, this.idleTimeoutSeconds);
    if (!session || session.developerId !== developerId) throw new NotFoundError('No such play session for this developer.');
    const insertions = session.testMode ? [] : await this.sessions.insertionsOf(session.id);
    return {
      id: session.id,
      gameId: session.gameId,
      gameVersionId: session.gameVersionId,
      playerRef: session.playerRef,
      testMode: session.testMode,
      status: statusOf(session),
      startedAt: session.startedAt,
      lastSeenAt: session.lastSeenAt,
      endedAt: session.endedAt,
      expiresAt: expiresAtOf(session, this.idleTimeoutSeconds),
      totalCoins: insertions.reduce((sum, insertion) => (insertion.voidedAt ? sum : sum + insertion.coins), 0),
      insertions,
    };
  }
}
