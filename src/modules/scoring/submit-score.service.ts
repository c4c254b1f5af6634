import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import type { ApiKeyContext } from '../developer-portal';
import { AnswerStore, IdempotencyService, UnkeptAnswer } from '../idempotency';
import type { PlayerContext } from '../../http/account-auth';
import { LoginState, readWithLoginState, requireLiveLogin, splitLoginState } from '../identity';
import { InsertionRecord, PlaySessionRecord, PlaySessionsService } from '../play-sessions';
import { LimitHit, RateLimiter } from '../rate-limits';
import { BOARD_SIZE, BoardEntry, initialsOutcome, placeOnBoard } from './leaderboard.rules';
import { LeaderboardService } from './leaderboard.service';
import { CoinRequiredError, InsertionAlreadyScoredError, InsertionVoidedError, ScoreOutOfRangeError } from './scoring.errors';
import { ScoreSource, ScoringRepository } from './scoring.repository';

/** The score submission result of spec §2.5: all eight fields, always. */
export interface ScoreResult {
  scoreId: string | null;
  saved: boolean;
  testMode: boolean;
  qualifies: boolean;
  replayed: boolean;
  rank: number | null;
  initials: string | null;
  needsInitials: boolean;
}

export interface ScoreInput {
  score: number;
  idempotencyKey: string;
}

/** The all-time board as the target's statement read it (JSON: achieved_at as text). */
type BoardJson = { id: string; score: string; achieved_at: string }[];

interface Target {
  gameId: string;
  insertionId: string;
  playSessionId: string;
  playerId: string;
  source: ScoreSource;
  /** The game's maxScore (CONTRACT §16.17: 422 after 409). */
  maxScore: number;
  /** Whether the insertion already has a score (409). */
  scored: boolean;
  /** The player's saved initials. */
  preferredInitials: string | null;
  /** The all-time board as it stands and the transaction's clock (the score's achievedAt). */
  board: BoardJson;
  now: Date;
  /** Counted only once the score is otherwise acceptable (CONTRACT §16.17: limits last). */
  limits: LimitHit[];
}

/** A play session as the player score's statement reads it. */
type PlayerScoreTarget = PlaySessionRecord & { insertionId: string | null; insertionVoided: boolean | null; insertionScored: boolean | null; now: Date; board: BoardJson };
/** The route trusts a kept login session: the target is read with the caller's login state (readWithLoginState). */
type PlayerScoreRow = Partial<PlayerScoreTarget> & LoginState;

/** An insertion as the trusted score's statement reads it. */
type TrustedScoreRow = InsertionRecord & { scored: boolean; playerInitials: string | null; now: Date; board: BoardJson };

/**
 * Saves player scores (bound to the play session's latest insertion) and trusted scores (bound to
 * an insertion named by the developer's server): one score per insertion, idempotent per key.
 * Each runs in one transaction that first claims the key, so a replay or key conflict is answered
 * before any other check (CONTRACT §7, §16.17), as insert-coin does. The claim carries the one
 * read a score needs (the play session or insertion, its latest insertion, the board as it stands);
 * the score, the session's lastSeenAt and the stored answer are one statement: four round trips
 * with BEGIN and COMMIT (docs/performance.md). A player score's route trusts a kept login session:
 * its claim also reads the caller's login state (401 first) and saved initials (readWithLoginState).
 */
@Injectable()
export class SubmitScoreService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly playSessions: PlaySessionsService,
    private readonly rateLimits: RateLimiter,
    private readonly scores: ScoringRepository,
    private readonly leaderboard: LeaderboardService,
  ) {}

  async submitPlayerScore(
    player: Pick<PlayerContext, 'accountId' | 'playerId' | 'loginSessionId'>,
    playSessionId: string,
    input: ScoreInput,
  ): Promise<ScoreResult> {
    const playerId = player.playerId;
    const request = {
      caller: `account:${player.accountId}` as const,
      key: input.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('play-score', playSessionId, { score: input.score }),
      // 401 when the kept login session is over, before a replay is answered.
      checkCaller: requireLiveLogin,
      checkRead: (row: PlayerScoreRow | undefined) => this.playSessions.checkActive(playerId, splitLoginState<PlayerScoreTarget>(row!).found),
    };
    const limitsOf = (session: PlaySessionRecord): LimitHit[] => [
      { throttler: 'score-per-session', tracker: session.id },
      { throttler: 'score-per-player', tracker: playerId },
    ];
    const read = readWithLoginState(this.playSessions.scoreTargetRead(playSessionId, BOARD_SIZE), player.loginSessionId);
    const result = await this.uow.run(() =>
      this.idempotency.executeWith<ScoreResult, PlayerScoreRow>(request, 200, read, async (row, store) => {
        const { found, playerInitials } = splitLoginState<PlayerScoreTarget>(row!);
        const session = this.playSessions.checkActive(playerId, found);
        if (session.testMode) return new UnkeptAnswer(await this.testModeResult(session, input.score, limitsOf(session)));
        if (!session.insertionId) throw new CoinRequiredError();
        if (session.insertionVoided) throw new InsertionVoidedError();
        return this.save(
          {
            gameId: session.gameId,
            insertionId: session.insertionId,
            playSessionId: session.id,
            playerId,
            source: 'player',
            maxScore: session.maxScore,
            scored: session.insertionScored === true,
            preferredInitials: playerInitials,
            board: session.board,
            now: session.now,
            limits: limitsOf(session),
          },
          input.score,
          store,
          // A successful score keeps the play session alive (CONTRACT §6), in the same statement.
          this.playSessions.touchRider(session.id),
        );
      }),
    );
    return result.body;
  }

  async submitTrustedScore(apiKey: ApiKeyContext, insertionId: string, input: ScoreInput): Promise<ScoreResult> {
    const notFound = () => new NotFoundError('No such insertion for your games.');
    const request = {
      caller: `developer:${apiKey.developerId}` as const,
      key: input.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('trusted-score', insertionId, { score: input.score }),
      checkRead: (row: TrustedScoreRow | undefined) => {
        if (!row) throw notFound();
      },
    };
    const read = this.playSessions.trustedScoreTargetRead(apiKey.developerId, insertionId, BOARD_SIZE);
    const result = await this.uow.run(() =>
      this.idempotency.executeWith<ScoreResult, TrustedScoreRow>(request, 200, read, async (insertion, store) => {
        // Test-mode ids (test_...) are never stored: they are not found like unknown and foreign ids.
        if (!insertion) throw notFound();
        if (insertion.voidedAt) throw new InsertionVoidedError();
        return this.save(
          {
            gameId: insertion.gameId,
            insertionId: insertion.id,
            playSessionId: insertion.playSessionId,
            playerId: insertion.playerId,
            source: 'trusted',
            maxScore: insertion.maxScore,
            scored: insertion.scored,
            preferredInitials: insertion.playerInitials,
            board: insertion.board,
            now: insertion.now,
            limits: [{ throttler: 'developer-per-key', tracker: apiKey.keyId }],
          },
          input.score,
          store,
        );
      }),
    );
    return result.body;
  }

  /**
   * Inside the use case's transaction: checks in contract order (409, 422, 429), then places the
   * score on the board as read with the claim (CONTRACT §16.7) and saves it with its answer.
   */
  private async save(target: Target, score: number, store: AnswerStore, ...riders: RidingWrite[]): Promise<ScoreResult> {
    if (target.scored) throw new InsertionAlreadyScoredError();
    if (score > target.maxScore) throw new ScoreOutOfRangeError(String(target.maxScore));
    // Per play session and per player counted in all or none (a refusal per player leaves the session's allowance).
    await this.rateLimits.consume(...target.limits);

    const id = randomUUID();
    const digits = String(score);
    const placement = placeOnBoard(boardOf(target.board), { id, score: digits, achievedAt: target.now });
    const outcome = initialsOutcome(true, placement.qualifies, target.preferredInitials);
    const answer: ScoreResult = { scoreId: id, saved: true, testMode: false, replayed: false, ...placement, ...outcome };
    const saved = await this.scores.insert(
      { id, gameId: target.gameId, insertionId: target.insertionId, playSessionId: target.playSessionId, playerId: target.playerId, score: digits, source: target.source, initials: target.preferredInitials, needsInitials: outcome.needsInitials },
      [...riders, store.ride(answer)],
    );
    // A concurrent submission on the same insertion committed first (scores_insertion_key).
    if (!saved) throw new InsertionAlreadyScoredError();
    // This process's cached boards of the game, once the score is committed (a replay saves nothing).
    this.uow.afterCommit(() => this.leaderboard.invalidate(target.gameId));
    return answer;
  }

  /** Test mode (CONTRACT §9): no coin, no score stored; where the score would have placed. */
  private async testModeResult(session: PlayerScoreTarget, score: number, limits: LimitHit[]): Promise<ScoreResult> {
    if (score > session.maxScore) throw new ScoreOutOfRangeError(String(session.maxScore));
    await this.rateLimits.consume(...limits);
    const placement = placeOnBoard(boardOf(session.board), { id: '', score: String(score), achievedAt: session.now });
    // The test-mode session itself is stored (§16.11): a successful score keeps it alive (§6).
    await this.playSessions.touch(session.id);
    return { scoreId: null, saved: false, testMode: true, replayed: false, ...placement, ...initialsOutcome(false, placement.qualifies, null) };
  }
}

function boardOf(rows: BoardJson): BoardEntry[] {
  return rows.map((r) => ({ id: r.id, score: r.score, achievedAt: new Date(r.achieved_at) }));
}
