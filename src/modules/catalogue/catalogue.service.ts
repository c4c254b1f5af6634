import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../../errors/app-error';
import { isUuid } from '../../database/uuid';
import { CatalogueRepository } from './catalogue.repository';

export interface CatalogueGame {
  slug: string;
  title: string;
  coinsPerCredit: number;
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

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * A real instant in our cursor format that PostgreSQL can hold: no 2026-02-30, and no year 0000
 * (PostgreSQL has no year 0 and answered an error, issue 14). Games were first published after 1970.
 */
function isTimestamp(value: string): boolean {
  if (!TIMESTAMP.test(value) || value < '1970') return false;
  const parsed = new Date(value.slice(0, 23) + 'Z');
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === value.slice(0, 19);
}

/** The opaque cursor: base64url of the last row's publication time and id. */
export function encodeCursor(publishedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([publishedAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { publishedAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && isTimestamp(value[0]) && isUuid(value[1])) {
      return { publishedAt: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new InvalidRequestError('The cursor is not readable: pass the nextCursor of a previous page.', [{ field: 'cursor', problems: ['cursor is not readable'] }]);
}

/** The public catalogue (CONTRACT §5): published games, and one game with its achievements. */
@Injectable()
export class CatalogueService {
  constructor(private readonly catalogue: CatalogueRepository) {}

  async list(limit: number, cursor: string | undefined): Promise<{ games: CatalogueGame[]; nextCursor: string | null }> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const rows = await this.catalogue.page(limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      games: page.map((row) => ({ slug: row.slug, title: row.title, coinsPerCredit: row.coins_per_credit })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.published_at, last.id) : null,
    };
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
    return { slug: game.slug, title: game.title, coinsPerCredit: game.coins_per_credit, achievements };
  }
}
