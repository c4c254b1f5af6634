import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { LeaderboardService } from './leaderboard.service';
import { RemovedScore, ScoringRepository } from './scoring.repository';

export type { RemovedScore } from './scoring.repository';

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
  ) {}

  /** Undefined for an unknown score id. */
  removeScore(scoreId: string): Promise<RemovedScore | undefined> {
    return this.removeWhere({ scoreId });
  }

  /** The score saved with this insertion; undefined when it has none. */
  removeScoreOfInsertion(insertionId: string): Promise<RemovedScore | undefined> {
    return this.removeWhere({ insertionId });
  }

  private async removeWhere(by: { scoreId: string } | { insertionId: string }): Promise<RemovedScore | undefined> {
    const removed = await this.scores.remove(by);
    if (removed?.changed) this.uow.afterCommit(() => this.leaderboard.invalidate(removed.gameId));
    return removed;
  }
}
