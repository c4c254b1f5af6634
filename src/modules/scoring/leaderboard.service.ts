import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../../database/domain-events';
import { NotFoundError } from '../../errors/app-error';
import { GamesService } from '../developer-portal';
import { weekStartOf } from './leaderboard.rules';
import { BoardRow, ScoringRepository } from './scoring.repository';

export type Period = 'all' | 'week';

export interface LeaderboardEntry {
  rank: number;
  initials: string;
  score: string;
  achievedAt: string;
  verified: boolean;
}

/** The caller's best saved score of a period (CONTRACT §17.2 "Beyond the top ten"). */
export interface PlayerBest {
  score: string;
  initials: string | null;
  achievedAt: string;
  rank: number;
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
  /** The answer as sent, `{ slug, period, scores }` in JSON: see `cachedAnswer`. */
  answer: Buffer;
}

/**
 * A board — the published game's lookup and its entries — may be served from this process's
 * cache for this long: a new score, or a change of the game's status, shows on every instance
 * within a second (on the instance that made the change, at once).
 */
const CACHE_TTL_MS = 500;
const CACHE_MAX_ENTRIES = 5000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The public top ten (all time and this ISO week), and where a new score would place. */
@Injectable()
export class LeaderboardService {
  private readonly cache = new Map<string, Cached>();
  private weekStart = '';
  private weekEndsAt = 0;

  constructor(private readonly scores: ScoringRepository, private readonly games: GamesService, events: DomainEvents) {
    events.on('game.status-changed', ({ gameId }) => this.invalidate(gameId));
  }

  async board(slug: string, period: Period): Promise<Leaderboard> {
    const weekStart = this.currentWeekStart();
    const cacheKey = `${slug}:${period === 'week' ? weekStart : 'all'}`;
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expiresAt > Date.now()) return { slug, period, scores: hit.scores };

    const game = await this.games.findBySlugLagging(slug);
    // Unpublished and suspended games answer exactly as unknown slugs do (CONTRACT §16.13).
    if (!game || game.status !== 'published') throw new NotFoundError('No published game with this slug.');
    const rows = period === 'week' ? await this.scores.boardWeek(game.id, weekStart) : await this.scores.boardAll(game.id);
    const scores = rows.map(toEntry);
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    const answer = Buffer.from(JSON.stringify({ slug, period, scores }));
    this.cache.set(cacheKey, { gameId: game.id, expiresAt: Date.now() + CACHE_TTL_MS, scores, answer });
    return { slug, period, scores };
  }

  /**
   * The player's best saved score of the period, with or without initials, and its place among
   * the board's scores (all of them, not only the top ten); null when the player has none. Never
   * cached: it is one player's, and their newest score shows at once.
   */
  async best(slug: string, period: Period, playerId: string): Promise<{ best: PlayerBest | null }> {
    const game = await this.games.findBySlugLagging(slug);
    if (!game || game.status !== 'published') throw new NotFoundError('No published game with this slug.');
    const row = await this.scores.playerBest(game.id, playerId, period === 'week' ? this.currentWeekStart() : undefined);
    return { best: row ? { score: row.score, initials: row.initials, achievedAt: row.achievedAt.toISOString(), rank: row.rank } : null };
  }

  /**
   * The cached answer of a board read, byte for byte what the controller sends for it, while it is
   * fresh; undefined otherwise. Only a board the controller has served is ever here.
   */
  cachedAnswer(slug: string, period: Period): Buffer | undefined {
    const hit = this.cache.get(`${slug}:${period === 'week' ? this.currentWeekStart() : 'all'}`);
    return hit && hit.expiresAt > Date.now() ? hit.answer : undefined;
  }

  /** Monday of the current ISO week (UTC), worked out again only once the clock passes its end. */
  private currentWeekStart(): string {
    const now = Date.now();
    if (now >= this.weekEndsAt) {
      this.weekStart = weekStartOf(new Date(now));
      this.weekEndsAt = Date.parse(`${this.weekStart}T00:00:00Z`) + WEEK_MS;
    }
    return this.weekStart;
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
