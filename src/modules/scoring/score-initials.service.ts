import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { PlayersService } from '../identity';
import { RateLimiter } from '../rate-limits';
import { LeaderboardService } from './leaderboard.service';
import { ScoreNotFoundError } from './scoring.errors';
import { PendingInitialsRow, ScoringRepository } from './scoring.repository';

export interface PendingScore {
  scoreId: string;
  sessionId: string;
  gameSlug: string;
  score: string;
  achievedAt: string;
}

/** High-score initials: on the player's own score, and kept as the player's preference (§16.8, §16.22). */
@Injectable()
export class ScoreInitialsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly scores: ScoringRepository,
    private readonly players: PlayersService,
    private readonly rateLimits: RateLimiter,
    private readonly leaderboard: LeaderboardService,
  ) {}

  /**
   * Sets the initials of a score saved in this play session (ended or not) and saves them as the
   * player's preference; earlier scores keep what they had.
   */
  async saveInitials(playerId: string, playSessionId: string, scoreId: string, initials: string): Promise<{ id: string; initials: string }> {
    if (!isUuid(scoreId) || !isUuid(playSessionId)) throw new ScoreNotFoundError();
    return this.uow.run(async () => {
      const updated = await this.scores.setInitials(scoreId, playSessionId, playerId, initials);
      if (!updated) throw new ScoreNotFoundError();
      await this.players.setPreferredInitials(playerId, initials);
      await this.rateLimits.consume({ throttler: 'initials-per-player', tracker: playerId });
      this.uow.afterCommit(() => this.leaderboard.invalidate(updated.gameId));
      return { id: scoreId, initials };
    });
  }

  async pending(playerId: string): Promise<PendingScore[]> {
    return (await this.scores.pendingInitials(playerId)).map((row: PendingInitialsRow) => ({
      ...row,
      achievedAt: row.achievedAt.toISOString(),
    }));
  }
}
