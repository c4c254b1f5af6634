import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../errors/app-error';
import { decodeCursor, pageOf } from '../../http/keyset-cursor';
import { thumbnailUrlOf } from '../developer-portal';
import { CatalogueQuery, PublishedGameRow } from './catalogue.query';

export interface CatalogueGame {
  slug: string;
  title: string;
  coinsPerCredit: number;
  /** Plain text with its line breaks; null when none (CONTRACT §17.2). */
  description: string | null;
  /** A path on this service; null when none. */
  thumbnailUrl: string | null;
}

function toCatalogueGame(row: PublishedGameRow): CatalogueGame {
  return {
    slug: row.slug,
    title: row.title,
    coinsPerCredit: row.coins_per_credit,
    description: row.description === '' ? null : row.description,
    thumbnailUrl: thumbnailUrlOf({ id: row.id, thumbnailHash: row.thumbnail_hash }),
  };
}

export interface PublicAchievement {
  key: string;
  name: string;
  description: string;
  iconKey: string;
  secret: boolean;
  unlocked: boolean;
  unlockedAt: Date | null;
}

export interface PublicGame extends CatalogueGame {
  achievements: PublicAchievement[];
}

/** What a secret achievement shows until the caller unlocks it. */
export const HIDDEN = '???';

/** The public catalogue (CONTRACT §5): published games, and one game with its achievements. */
@Injectable()
export class CatalogueService {
  constructor(private readonly catalogue: CatalogueQuery) {}

  /** A page of published games, newest first; `query`: only those whose title or slug contains it (any case). */
  async list(limit: number, cursor: string | undefined, query?: string): Promise<{ games: CatalogueGame[]; nextCursor: string | null }> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor, ['timestamp', 'uuid'] as const);
    const page = await this.catalogue.page(limit + 1, after && { publishedAt: after[0], id: after[1] }, query);
    const { rows, nextCursor } = pageOf(page, limit, (row) => [row.published_at, row.id]);
    return { games: rows.map(toCatalogueGame), nextCursor };
  }

  /** Secret achievements show `???` unless this caller unlocked them; anonymous callers see nothing unlocked. */
  async game(slug: string, playerId: string | null): Promise<PublicGame> {
    const game = await this.catalogue.publishedBySlug(slug);
    if (!game) throw new NotFoundError('No such game.');
    const achievements = (await this.catalogue.achievements(game.id, playerId)).map((a) => {
      const unlocked = a.unlocked_at !== null;
      const hidden = a.secret && !unlocked;
      return {
        key: a.key,
        name: hidden ? HIDDEN : a.name,
        description: hidden ? HIDDEN : a.description,
        iconKey: a.icon_key,
        secret: a.secret,
        unlocked,
        unlockedAt: a.unlocked_at,
      };
    });
    return { ...toCatalogueGame(game), achievements };
  }
}
