import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';

/** A stored thumbnail: its hash and its WebP bytes. */
export interface ThumbnailRecord {
  hash: string;
  image: Buffer;
}

/** Games' thumbnails, one row per game. Non-uuid ids find nothing instead of reaching PostgreSQL. */
@Injectable()
export class GameThumbnailRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /** Stores the game's thumbnail, replacing the one it had. */
  async put(gameId: string, hash: string, image: Buffer): Promise<void> {
    await this.uow.query(
      `INSERT INTO game_thumbnails (game_id, hash, image) VALUES ($1, $2, $3)
       ON CONFLICT (game_id) DO UPDATE SET hash = excluded.hash, image = excluded.image, uploaded_at = now()`,
      [gameId, hash, image],
    );
  }

  async remove(gameId: string): Promise<void> {
    await this.uow.query('DELETE FROM game_thumbnails WHERE game_id = $1', [gameId]);
  }

  /** The game's thumbnail if its hash is this one (the primary's: an address handed out a moment ago must answer). */
  async byHash(gameId: string, hash: string): Promise<ThumbnailRecord | undefined> {
    if (!isUuid(gameId)) return undefined;
    return this.uow.one<ThumbnailRecord>('SELECT hash, image FROM game_thumbnails WHERE game_id = $1 AND hash = $2', [gameId, hash]);
  }
}
