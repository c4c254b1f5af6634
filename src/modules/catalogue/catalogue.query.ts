import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

export interface CatalogueRow {
  id: string;
  slug: string;
  title: string;
  coins_per_credit: number;
  /** first_published_at as ISO 8601 UTC with microseconds: exact, and independent of DateStyle. */
  published_at: string;
}

export interface PublicAchievementRow {
  key: string;
  name: string;
  description: string;
  icon_key: string;
  secret: boolean;
  unlocked_at: Date | null;
}

/**
 * Read side of the public catalogue, a cross-context query (docs/architecture.md): catalogue owns
 * no table and reads developer-portal's games and achievements and achievements' unlocks, never
 * writing them. Published games only. Every read here tolerates replication
 * lag (a read replica when DATABASE_READ_URLS is set; docs/database.md).
 */
@Injectable()
export class CatalogueQuery {
  constructor(private readonly uow: UnitOfWork) {}

  /** Newest first by first publication, served by games_catalogue_idx; `after` is the last row of the previous page. */
  page(limit: number, after: { publishedAt: string; id: string } | undefined): Promise<CatalogueRow[]> {
    if (!after) {
      return this.uow.queryReplica<CatalogueRow>(
        `SELECT id, slug, title, coins_per_credit, to_char(first_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS published_at
           FROM games WHERE status = 'published'
          ORDER BY first_published_at DESC, id DESC LIMIT $1`,
        [limit],
      );
    }
    return this.uow.queryReplica<CatalogueRow>(
      `SELECT id, slug, title, coins_per_credit, to_char(first_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS published_at
         FROM games WHERE status = 'published' AND (first_published_at, id) < ($2::timestamptz, $3::uuid)
        ORDER BY first_published_at DESC, id DESC LIMIT $1`,
      [limit, after.publishedAt, after.id],
    );
  }

  publishedBySlug(slug: string): Promise<{ id: string; slug: string; title: string; coins_per_credit: number } | undefined> {
    return this.uow.oneReplica(`SELECT id, slug, title, coins_per_credit FROM games WHERE slug = $1 AND status = 'published'`, [slug]);
  }

  /** Active achievements in the developer's order, with the caller's unlock time when a player is given. */
  achievements(gameId: string, playerId: string | null): Promise<PublicAchievementRow[]> {
    return this.uow.queryReplica<PublicAchievementRow>(
      `SELECT a.key, a.name, a.description, a.icon_key, a.secret, u.unlocked_at
         FROM achievements a
         LEFT JOIN achievement_unlocks u ON u.achievement_id = a.id AND u.player_id = $2
        WHERE a.game_id = $1 AND a.status = 'active'
        ORDER BY a.position`,
      [gameId, playerId],
    );
  }
}
