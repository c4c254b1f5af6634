import { Injectable } from '@nestjs/common';
import { likeLiteral } from '../../database/search';
import { UnitOfWork } from '../../database/unit-of-work';

export interface CatalogueRow {
  id: string;
  slug: string;
  title: string;
  coins_per_credit: number;
  /** '' when none. */
  description: string;
  /** The thumbnail's hash (the image is never read here), null when none. */
  thumbnail_hash: string | null;
  /** first_published_at as ISO 8601 UTC with microseconds: exact, and independent of DateStyle. */
  published_at: string;
}

export type PublishedGameRow = Omit<CatalogueRow, 'published_at'>;

const THUMBNAIL_HASH = '(SELECT th.hash FROM game_thumbnails th WHERE th.game_id = games.id) AS thumbnail_hash';
const PAGE_COLUMNS = `id, slug, title, coins_per_credit, description, ${THUMBNAIL_HASH},
  to_char(first_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS published_at`;

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

  /**
   * Newest first by first publication, served by games_catalogue_idx; `after` is the last row of
   * the previous page. `query`: only games whose slug or title contains it, whatever its case
   * (`%` and `_` are themselves); published games are few enough that the catalogue index, read
   * in order and filtered, finds them.
   */
  page(limit: number, after: { publishedAt: string; id: string } | undefined, query?: string): Promise<CatalogueRow[]> {
    const values: unknown[] = [limit];
    const conditions = [`status = 'published'`];
    if (query !== undefined) {
      values.push(likeLiteral(query));
      conditions.push(`(slug LIKE '%' || lower($${values.length}) || '%' OR lower(title) LIKE '%' || lower($${values.length}) || '%')`);
    }
    if (after) {
      values.push(after.publishedAt, after.id);
      conditions.push(`(first_published_at, id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
    }
    return this.uow.queryReplica<CatalogueRow>(
      `SELECT ${PAGE_COLUMNS} FROM games WHERE ${conditions.join(' AND ')}
        ORDER BY first_published_at DESC, id DESC LIMIT $1`,
      values,
    );
  }

  publishedBySlug(slug: string): Promise<PublishedGameRow | undefined> {
    return this.uow.oneReplica(
      `SELECT id, slug, title, coins_per_credit, description, ${THUMBNAIL_HASH} FROM games WHERE slug = $1 AND status = 'published'`,
      [slug],
    );
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
