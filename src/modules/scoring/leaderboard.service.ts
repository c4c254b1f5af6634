import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../errors/app-error';
import { GamesService } from '../developer-portal/games.service';
import { BoardEntry, placeOnBoard, Placement, weekStartOf } from './leaderboard.rules';
import { BoardRow, ScoringRepository } from './scoring.repository';

export type Period = 'all' | 'week';

export interface LeaderboardEntry {
  rank: number;
  initials: string;
  score: string;
  achievedAt: string;
  verified: boolean;
}

export interface Leaderboard {
  slug: string;
  period: Period;
  scores: LeaderboardEntry[];
}

interface Cached {
  gameId: string;
  expiresAt: number;
  scores: LeaderboardEntry[];
}

/**
 * A board — the published game's lookup and its entries — may be served from this process's
 * cache for this long: a new score, or a change of the game's status, shows on every instance
 * within a second (on the instance that made the change, at once).
 */
const CACHE_TTL_MS = 500;
const CACHE_MAX_ENTRIES = 5000;

/** The public top ten (all time and this ISO week), and where a new score would place. */
@Injectable()
export class LeaderboardService {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly scores: ScoringRepository, private readonly games: GamesService) {
    games.onStatusChange((gameId) => this.invalidate(gameId));
  }

  async board(slug: string, period: Period): Promise<Leaderboard> {
    const weekStart = weekStartOf(new Date());
    const cacheKey = `${slug}:${period === 'week' ? weekStart : 'all'}`;
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expiresAt > Date.now()) return { slug, period, scores: hit.scores };

    const game = await this.games.findBySlug(slug);
    // Unpublished and suspended games answer exactly as unknown slugs do (CONTRACT §16.13).
    if (!game || game.status !== 'published') throw new NotFoundError('No published game with this slug.');
    const rows = period === 'week' ? await this.scores.boardWeek(game.id, weekStart) : await this.scores.boardAll(game.id);
    const scores = rows.map(toEntry);
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(cacheKey, { gameId: game.id, expiresAt: Date.now() + CACHE_TTL_MS, scores });
    return { slug, period, scores };
  }

  /** Where `candidate` stands against the all-time board as it is now (CONTRACT §16.7). */
  async place(gameId: string, candidate: BoardEntry): Promise<Placement> {
    return placeOnBoard(await this.scores.boardAll(gameId), candidate);
  }

  /** Drops this process's cached boards of a game after a score or initials were committed. */
  invalidate(gameId: string): void {
    for (const [key, cached] of this.cache) if (cached.gameId === gameId) this.cache.delete(key);
  }
}

function toEntry(row: BoardRow, index: number): LeaderboardEntry {
  return {
    rank: index + 1,
    initials: row.initials,
    score: row.score,
    achievedAt: row.achievedAt.toISOString(),
    verified: row.source === 'trusted',
  };
}
