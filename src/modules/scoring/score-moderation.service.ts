import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { decodeCursor, pageOf } from '../../http/keyset-cursor';
import { AuditActor, AuditService } from '../audit';
import { WebhookOutbox } from '../webhooks';
import { GamesService } from '../developer-portal';
import { weekStartOf } from './leaderboard.rules';
import { LeaderboardService, Period } from './leaderboard.service';
import { AdminScoreRow, RemovedScore, ScoringRepository } from './scoring.repository';

export type { RemovedScore } from './scoring.repository';

export type AdminScoreView = Omit<AdminScoreRow, 'cursorAt'>;

/**
 * Takes scores off the boards (an admin's removal, CONTRACT §18; a voided insertion's score, §19).
 * Joins the caller's transaction; once it commits, this instance's cached boards of the game are
 * dropped at once (other instances' caches live at most 500 ms). The score row stays, with its
 * insertion paid and verifiable.
 */
@Injectable()
export class ScoreModerationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly scores: ScoringRepository,
    private readonly leaderboard: LeaderboardService,
    private readonly games: GamesService,
    private readonly audit: AuditService,
    private readonly webhooks: WebhookOutbox,
  ) {}

  /** A game's saved scores for the admin console, best first, removed ones included (CONTRACT §18). */
  async list(gameId: string, period: Period, options: { limit: number; cursor?: string }): Promise<{ scores: AdminScoreView[]; nextCursor: string | null }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, ['digits', 'timestamp', 'uuid'] as const);
    const game = await this.games.findById(gameId);
    if (!game) throw new NotFoundError('No such game.');
    const weekStart = period === 'week' ? weekStartOf(new Date()) : undefined;
    const page = await this.scores.adminPage(game.id, weekStart, after && { score: after[0], achievedAt: after[1], id: after[2] }, options.limit + 1);
    const { rows, nextCursor } = pageOf(page, options.limit, (row) => [row.score, row.cursorAt, row.scoreId]);
    return { scores: rows.map(({ cursorAt: _cursorAt, ...score }) => score), nextCursor };
  }

  /**
   * An admin's removal: off every board at once, audited with its reason. A repeat answers the first
   * `removedAt` and records nothing; an unknown score is 404 NOT_FOUND.
   */
  removeByAdmin(actor: AuditActor, scoreId: string, reason: string): Promise<{ scoreId: string; removedAt: Date }> {
    return this.uow.run(async () => {
      const removed = await this.removeScore(scoreId);
      if (!removed) throw new NotFoundError('No such score.');
      if (removed.changed) await this.audit.record({ ...actor, action: 'score.remove', targetId: removed.scoreId, reason, details: { gameId: removed.gameId } });
      return { scoreId: removed.scoreId, removedAt: removed.removedAt };
    });
  }

  /** Undefined for an unknown score id. */
  removeScore(scoreId: string): Promise<RemovedScore | undefined> {
    return this.removeWhere({ scoreId });
  }

  /** The score saved with this insertion; undefined when it has none. */
  removeScoreOfInsertion(insertionId: string): Promise<RemovedScore | undefined> {
    return this.removeWhere({ insertionId });
  }

  /** The first removal also records `score.removed` (CONTRACT §21) in the caller's transaction; a repeat records nothing. */
  private async removeWhere(by: { scoreId: string } | { insertionId: string }): Promise<RemovedScore | undefined> {
    this.uow.requireTransaction();
    const row = await this.scores.remove(by);
    if (!row) return undefined;
    const { developerId, ...removed } = row;
    if (removed.changed) {
      this.uow.afterCommit(() => this.leaderboard.invalidate(removed.gameId));
      if (developerId) {
        await this.webhooks.record({
          developerId,
          type: 'score.removed',
          data: { scoreId: removed.scoreId, gameId: removed.gameId, removedAt: removed.removedAt.toISOString() },
          occurredAt: removed.removedAt,
        });
      }
    }
    return removed;
  }
}
