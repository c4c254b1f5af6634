import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { NotFoundError } from '../../errors/app-error';
import type { ApiKeyContext } from '../developer-portal';
import { claimedRead, IdempotencyService } from '../idempotency';
import type { KeptLoginPlayer } from '../../http/account-auth';
import { PlayActionService, PlaySessionRecord } from '../play-sessions';
import { LimitHit, RateLimiter } from '../rate-limits';
import { WebhookOutbox } from '../webhooks';
import { BoardEntry, initialsOutcome, placeOnBoard } from './leaderboard.rules';
import { LeaderboardService } from './leaderboard.service';
import { CoinRequiredError, InsertionAlreadyScoredError, InsertionVoidedError, ScoreOutOfRangeError } from './scoring.errors';
import { ScoreSource, ScoringRepository } from './scoring.repository';
import { BoardJson, PLAYER_SCORE_READ, PlayerScoreTarget, TRUSTED_SCORE_READ, TrustedScoreTarget } from './score-target.query';

/** The trusted score's read with the key's claim, composed once. */
const TRUSTED_CLAIMED_READ = claimedRead(TRUSTED_SCORE_READ);

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

/** score.created's player ref and time, read only when the event is written: achieved_at is the transaction's now(). */
const SCORE_CREATED_ENRICH = `jsonb_build_object('playerRef', (SELECT player_ref FROM play_sessions WHERE id = {0}::uuid), 'achievedAt', webhook_time(now()))`;

interface Target {
  gameId: string;
  /** The game's developer (the webhook event's recipient). */
  developerId: string;
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

/**
 * Saves player scores (bound to the play session's latest insertion) and trusted scores (bound to
 * an insertion named by the developer's server): one score per insertion, idempotent per key.
 * A player score is a play action (PlayActionService: the claim with the login state and its
 * target, 401, replay, 404/410, test mode); a trusted score claims its key the same way
 * (CONTRACT §7, §16.17). The claim carries the one read a score needs (score-target.query.ts: the
 * play session or insertion, its latest insertion, the board as it stands); the score, the
 * session's lastSeenAt and the stored answer are one statement: four round trips with BEGIN and
 * COMMIT (docs/performance.md).
 */
@Injectable()
export class SubmitScoreService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly play: PlayActionService,
    private readonly rateLimits: RateLimiter,
    private readonly scores: ScoringRepository,
    private readonly leaderboard: LeaderboardService,
    private readonly webhooks: WebhookOutbox,
  ) {}

  submitPlayerScore(player: KeptLoginPlayer, playSessionId: string, input: ScoreInput): Promise<ScoreResult> {
    const playerId = player.playerId;
    const limitsOf = (session: PlaySessionRecord): LimitHit[] => [
      { throttler: 'score-per-session', tracker: session.id },
      { throttler: 'score-per-player', tracker: playerId },
    ];
    return this.play.run(player, playSessionId, {
      name: 'play-score',
      read: PLAYER_SCORE_READ,
      idempotencyKey: input.idempotencyKey,
      body: { score: input.score },
      test: ({ session }) => this.testModeResult(session, input.score, limitsOf(session)),
      paid: ({ session, playerInitials, answer, touch }) => {
        if (!session.insertionId) throw new CoinRequiredError();
        if (session.insertionVoided) throw new InsertionVoidedError();
        return this.save(
          {
            gameId: session.gameId,
            developerId: session.developerId,
            insertionId: session.insertionId,
            playSessionId: session.id,
            playerId,
            source: 'player',
            maxScore: session.maxScore,
            scored: session.insertionScored,
            preferredInitials: playerInitials,
            board: session.board,
            now: session.now,
            limits: limitsOf(session),
          },
          input.score,
          answer,
          // A successful score keeps the play session alive (CONTRACT §6), in the same statement.
          touch(),
        );
      },
    });
  }

  async submitTrustedScore(apiKey: ApiKeyContext, insertionId: string, input: ScoreInput): Promise<ScoreResult> {
    const notFound = () => new NotFoundError('No such insertion for your games.');
    const request = {
      caller: `developer:${apiKey.developerId}` as const,
      key: input.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('trusted-score', insertionId, { score: input.score }),
      checkRead: (row: TrustedScoreTarget | undefined) => {
        if (!row) throw notFound();
      },
    };
    const read = { part: TRUSTED_CLAIMED_READ, values: [isUuid(insertionId) ? insertionId : null, apiKey.developerId] };
    const result = await this.uow.run(() =>
      this.idempotency.executeWith<ScoreResult, TrustedScoreTarget>(request, 200, read, async (insertion, store) => {
        // Test-mode ids (test_...) are never stored: they are not found like unknown and foreign ids.
        if (!insertion) throw notFound();
        if (insertion.voidedAt) throw new InsertionVoidedError();
        return this.save(
          {
            gameId: insertion.gameId,
            developerId: apiKey.developerId,
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
          (answer) => store.ride(answer),
        );
      }),
    );
    return result.body;
  }

  /**
   * Inside the use case's transaction: checks in contract order (409, 422, 429), then places the
   * score on the board as read with the claim (CONTRACT §16.7) and saves it with its answer.
   */
  private async save(target: Target, score: number, storeAnswer: (answer: ScoreResult) => RidingWrite, ...riders: RidingWrite[]): Promise<ScoreResult> {
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
      [
        ...riders,
        storeAnswer(answer),
        // CONTRACT §21 score.created, with the score, only for a developer with a subscribed endpoint.
        this.webhooks.rider({
          developerId: target.developerId,
          type: 'score.created',
          data: { scoreId: id, gameId: target.gameId, sessionId: target.playSessionId, insertionId: target.insertionId, score: digits, source: target.source },
          enrich: { sql: SCORE_CREATED_ENRICH, values: [target.playSessionId] },
        }),
      ],
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
    return { scoreId: null, saved: false, testMode: true, replayed: false, ...placement, ...initialsOutcome(false, placement.qualifies, null) };
  }
}

function boardOf(rows: BoardJson): BoardEntry[] {
  return rows.map((r) => ({ id: r.id, score: r.score, achievedAt: new Date(r.achieved_at) }));
}
