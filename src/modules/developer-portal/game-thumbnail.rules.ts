/**
 * A game's thumbnail (CONTRACT §17.2): what an upload may be, what is stored, and the address it
 * is served at. The address carries the hash of the stored bytes, so it never changes meaning and
 * is cached for a year; a new upload gets a new address.
 */

/** The media types an upload may declare. */
export const THUMBNAIL_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** Bytes an upload may have: 2 MB (as §16.16 counts "64 KB": 2 × 1,048,576). */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/** The smallest picture taken, as it is seen (after its EXIF orientation). */
export const THUMBNAIL_MIN_WIDTH = 320;
export const THUMBNAIL_MIN_HEIGHT = 180;

/** What is stored and served: WebP of exactly this size, cropped to fill. */
export const THUMBNAIL_WIDTH = 640;
export const THUMBNAIL_HEIGHT = 360;

/** Hex characters of the bytes' SHA-256 in the address (64 bits: one game's uploads never collide). */
export const THUMBNAIL_HASH_LENGTH = 16;

/** The served file's name: `thumbnail-<hash>.webp`. */
const FILE_NAME = /^thumbnail-([0-9a-f]{16})\.webp$/;

/** Where this service serves a game's thumbnail: a path on this service. */
export function thumbnailUrl(gameId: string, hash: string): string {
  return `/media/games/${gameId}/thumbnail-${hash}.webp`;
}

/** `thumbnailUrl` of a game read with its thumbnail's hash, or null when it has none. */
export function thumbnailUrlOf(game: { id: string; thumbnailHash: string | null }): string | null {
  return game.thumbnailHash === null ? null : thumbnailUrl(game.id, game.thumbnailHash);
}

/** The hash a served file name asks for, or undefined for a name that is not a thumbnail's. */
export function hashOfFileName(fileName: string): string | undefined {
  return FILE_NAME.exec(fileName)?.[1];
}

/** Whether a picture of this size (as seen) is big enough. */
export function isLargeEnough(width: number, height: number): boolean {
  return width >= THUMBNAIL_MIN_WIDTH && height >= THUMBNAIL_MIN_HEIGHT;
}
