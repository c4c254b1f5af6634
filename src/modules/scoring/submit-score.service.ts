import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import type { ApiKeyContext } from '../developer-portal/api-key.decorators';
import { IdempotencyService, IdempotentRequest, UnkeptAnswer } from '../idempotency/idempotency.service';
import type { PlayerContext } from '../identity/auth.decorators';
import { PlayersService } from '../identity/players.service';
import { PlaySessionRecord, PlaySessionsService } from '../play-sessions/play-sessions.service';
import { LimitHit, RateLimiter } from '../rate-limits/rate-limiter.service';
import { initialsOutcome } from './leaderboard.rules';
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

interface Target {
  gameId: string;
  insertionId: string;
  playSessionId: string;
  playerId: string;
  source: ScoreSource;
  /** The game's maxScore (CONTRACT §16.17: 422 after 409). */
  maxScore: number;
  /** The player's saved initials; undefined: read them (trusted scores). */
  preferredInitials?: string | null;
  /** Counted only once the score is otherwise acceptable (CONTRACT §16.17: limits last). */
  limits: LimitHit[];
}

/**
 * Saves player scores (bound to the play session's latest insertion) and trusted scores (bound to
 * an insertion named by the developer's server): one score per insertion, idempotent per key.
 * Each runs in one transaction that first claims the key, so a replay or key conflict is answered
 * before any other check (CONTRACT §7, §16.17), as insert-coin does.
 */
@Injectable()
export class SubmitScoreService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly playSessions: PlaySessionsService,
    private readonly players: PlayersService,
    private readonly rateLimits: RateLimiter,
    private readonly scores: ScoringRepository,
    private readonly leaderboard: LeaderboardService,
  ) {}

  async submitPlayerScore(
    player: Pick<PlayerContext, 'accountId' | 'playerId' | 'playerInitials'>,
    playSessionId: string,
    input: ScoreInput,
  ): Promise<ScoreResult> {
    const playerId = player.playerId;
    const request: IdempotentRequest = {
      caller: `account:${player.accountId}`,
      key: input.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('play-score', playSessionId, { score: input.score }),
      checkPath: () => this.playSessions.requireActive(playerId, playSessionId),
    };
    const limitsOf = (session: PlaySessionRecord): LimitHit[] => [
      { throttler: 'score-per-session', tracker: session.id },
      { throttler: 'score-per-player', tracker: playerId },
    ];
    const result = await this.uow.run(() =>
      this.idempotency.execute<ScoreResult>(request, 200, async () => {
        const session = await this.playSessions.requireActive(playerId, playSessionId);
        if (session.testMode) return new UnkeptAnswer(await this.testModeResult(session, input.score, limitsOf(session)));
        const insertion = await this.playSessions.latestInsertion(session.id);
        if (!insertion) throw new CoinRequiredError();
        if (insertion.voided) throw new InsertionVoidedError();
        const body = await this.save(
          {
            gameId: session.gameId,
            insertionId: insertion.id,
            playSessionId: session.id,
            playerId,
            source: 'player',
            maxScore: session.maxScore,
            preferredInitials: player.playerInitials,
            limits: limitsOf(session),
          },
          input.score,
        );
        await this.playSessions.touch(session.id);
        return body;
      }),
    );
    return result.body;
  }

  async submitTrustedScore(apiKey: ApiKeyContext, insertionId: string, input: ScoreInput): Promise<ScoreResult> {
    const request: IdempotentRequest = {
      caller: `developer:${apiKey.developerId}`,
      key: input.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('trusted-score', insertionId, { score: input.score }),
      checkPath: async () => {
        if (!(await this.playSessions.insertionOfDeveloper(apiKey.developerId, insertionId))) throw new NotFoundError('No such insertion for your games.');
      },
    };
    const result = await this.uow.run(() =>
      this.idempotency.execute(request, 200, async () => {
        // Test-mode ids (test_...) are never stored: they are not found like unknown and foreign ids.
        const insertion = await this.playSessions.insertionOfDeveloper(apiKey.developerId, insertionId);
        if (!insertion) throw new NotFoundError('No such insertion for your games.');
        if (insertion.voidedAt) throw new InsertionVoidedError();
        return this.save(
          {
            gameId: insertion.gameId,
            insertionId: insertion.id,
            playSessionId: insertion.playSessionId,
            playerId: insertion.playerId,
            source: 'trusted',
            maxScore: insertion.maxScore,
            limits: [{ throttler: 'developer-per-key', tracker: apiKey.keyId }],
          },
          input.score,
        );
      }),
    );
    return result.body;
  }

  /** Inside the use case's transaction: checks in contract order (409, 422, 429), then saves and places. */
  private async save(target: Target, score: number): Promise<ScoreResult> {
    if (await this.scores.isInsertionScored(target.insertionId)) throw new InsertionAlreadyScoredError();
    if (score > target.maxScore) throw new ScoreOutOfRangeError(String(target.maxScore));
    // Per play session and per player counted in all or none (a refusal per player leaves the session's allowance).
    await this.rateLimits.consume(...target.limits);

    const preferred = target.preferredInitials !== undefined ? target.preferredInitials : await this.players.getPreferredInitials(target.playerId);
    const saved = await this.scores.insert({ ...target, score: String(score), initials: preferred });
    // A concurrent submission on the same insertion committed first (scores_insertion_key).
    if (!saved) throw new InsertionAlreadyScoredError();
    // This process's cached boards of the game, once the score is committed (a replay saves nothing).
    this.uow.afterCommit(() => this.leaderboard.invalidate(target.gameId));

    const placement = await this.leaderboard.place(target.gameId, { id: saved.id, score: String(score), achievedAt: saved.achievedAt });
    const outcome = initialsOutcome(true, placement.qualifies, preferred);
    if (outcome.needsInitials) await this.scores.markNeedsInitials(saved.id);
    return { scoreId: saved.id, saved: true, testMode: false, replayed: false, ...placement, ...outcome };
  }

  /** Test mode (CONTRACT §9): no coin, no score stored; where the score would have placed. */
  private async testModeResult(session: PlaySessionRecord, score: number, limits: Target['limits']): Promise<ScoreResult> {
    if (score > session.maxScore) throw new ScoreOutOfRangeError(String(session.maxScore));
    await this.rateLimits.consume(...limits);
    const placement = await this.leaderboard.place(session.gameId, { id: '', score: String(score), achievedAt: new Date() });
    // The test-mode session itself is stored (§16.11): a successful score keeps it alive (§6).
    await this.playSessions.touch(session.id);
    return { scoreId: null, saved: false, testMode: true, replayed: false, ...placement, ...initialsOutcome(false, placement.qualifies, null) };
  }
}
