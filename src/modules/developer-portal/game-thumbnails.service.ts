import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { UnsupportedMediaTypeError } from '../../errors/app-error';
import { ThumbnailMissingError } from './developer-portal.errors';
import { encodeThumbnail } from './game-thumbnail.encoder';
import { GameThumbnailRepository } from './game-thumbnail.repository';
import { thumbnailUrl } from './game-thumbnail.rules';
import { GamesService } from './games.service';

/** Thumbnails kept in memory: at most this many, and at most this many bytes in all. */
const CACHE_ENTRIES = 256;
const CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A small least-recently-used map of game id -> its thumbnail, so that serving one is a memory
 * read. A lookup names the hash it wants: an entry of another hash (replaced meanwhile) misses.
 * Each instance keeps its own; an address handed out by another instance is read from the database.
 */
class ThumbnailCache {
  private readonly entries = new Map<string, { hash: string; image: Buffer }>();
  private bytes = 0;

  get(gameId: string, hash: string): Buffer | undefined {
    const entry = this.entries.get(gameId);
    if (!entry || entry.hash !== hash) return undefined;
    this.entries.delete(gameId);
    this.entries.set(gameId, entry);
    return entry.image;
  }

  set(gameId: string, hash: string, image: Buffer): void {
    this.delete(gameId);
    this.entries.set(gameId, { hash, image });
    this.bytes += image.length;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= CACHE_ENTRIES && this.bytes <= CACHE_BYTES) break;
      this.delete(oldest);
    }
  }

  delete(gameId: string): void {
    const entry = this.entries.get(gameId);
    if (!entry) return;
    this.entries.delete(gameId);
    this.bytes -= entry.image.length;
  }
}

/**
 * A game's thumbnail (CONTRACT §17.2): the developer uploads (re-encoded once, here) and deletes
 * it; anyone reads the stored bytes by the address the game objects carry.
 */
@Injectable()
export class GameThumbnailsService {
  private readonly cache = new ThumbnailCache();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly games: GamesService,
    private readonly thumbnails: GameThumbnailRepository,
  ) {}

  /**
   * Checks the game is the developer's before looking at the image (another's: 404, as every
   * portal route), then its media type (415) and bytes (400), encodes it outside any transaction
   * (it takes tens of milliseconds), then stores it, replacing the game's previous thumbnail.
   */
  async upload(developerId: string, gameId: string, upload: { bytes: Buffer | undefined; typeAccepted: boolean }): Promise<{ thumbnailUrl: string }> {
    await this.games.ownedGame(developerId, gameId);
    if (!upload.bytes || upload.bytes.length === 0) throw new ThumbnailMissingError();
    if (!upload.typeAccepted) {
      throw new UnsupportedMediaTypeError('Thumbnail: send a PNG, JPEG or WebP image (Content-Type image/png, image/jpeg or image/webp).');
    }
    const { image, hash } = await encodeThumbnail(upload.bytes);
    await this.uow.run(async () => {
      await this.games.ownedGame(developerId, gameId, true);
      await this.thumbnails.put(gameId, hash, image);
      this.uow.afterCommit(() => this.cache.set(gameId, hash, image));
    });
    return { thumbnailUrl: thumbnailUrl(gameId, hash) };
  }

  /** Deleting a thumbnail the game does not have changes nothing. */
  remove(developerId: string, gameId: string): Promise<void> {
    return this.uow.run(async () => {
      await this.games.ownedGame(developerId, gameId, true);
      await this.thumbnails.remove(gameId);
      this.uow.afterCommit(() => this.cache.delete(gameId));
    });
  }

  /** The stored WebP of this game and hash, or undefined (unknown game, no thumbnail, or an address replaced since). */
  async image(gameId: string, hash: string): Promise<Buffer | undefined> {
    const cached = this.cache.get(gameId, hash);
    if (cached) return cached;
    const stored = await this.thumbnails.byHash(gameId, hash);
    if (!stored) return undefined;
    this.cache.set(gameId, stored.hash, stored.image);
    return stored.image;
  }
}
