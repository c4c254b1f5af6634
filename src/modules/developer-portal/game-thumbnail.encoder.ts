import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ServiceUnavailableError } from '../../errors/app-error';
import { ThumbnailNotAnImageError, ThumbnailTooManyPixelsError, ThumbnailTooSmallError } from './developer-portal.errors';
import {
  isLargeEnough,
  THUMBNAIL_HASH_LENGTH,
  THUMBNAIL_HEIGHT,
  THUMBNAIL_MIN_HEIGHT,
  THUMBNAIL_MIN_WIDTH,
  THUMBNAIL_WIDTH,
} from './game-thumbnail.rules';

/** Pixels decoded at most: a small file may announce a huge picture (a decompression bomb). */
const MAX_INPUT_PIXELS = 40_000_000;

/** What sharp reads: the formats an upload may declare (never SVG, GIF or the rest libvips knows). */
const READABLE_FORMATS = new Set(['png', 'jpeg', 'webp']);

// One libvips thread per image and no operation cache: an upload is rare, and must never take
// both cores (or memory kept for images never seen again) from the requests around it.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Encodings run one at a time in this process, for the same reason, and at most this many wait:
 * a flood of uploads is answered 503 (retry in a second) instead of queueing work for minutes.
 */
const MAX_WAITING = 4;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_WAITING) {
    return Promise.reject(new ServiceUnavailableError('Thumbnail: other images are being processed; try again in a moment.'));
  }
  waiting += 1;
  const start = () => {
    waiting -= 1;
    return work();
  };
  const run = queue.then(start, start);
  queue = run.catch(() => undefined);
  return run;
}

export interface EncodedThumbnail {
  /** The 640×360 WebP, with no metadata. */
  image: Buffer;
  /** The start of the bytes' SHA-256, in hex: the served address carries it. */
  hash: string;
}

/**
 * An uploaded image as it is stored and served (CONTRACT §17.2): turned by its EXIF orientation,
 * cropped to fill 640×360 around its most interesting part, WebP at quality 80, every piece of
 * metadata (EXIF, ICC, XMP) dropped. Refuses what is not a readable PNG, JPEG or WebP and what is
 * smaller than 320×180 as seen: 400 INVALID_REQUEST, whatever the declared media type said.
 */
export function encodeThumbnail(input: Buffer): Promise<EncodedThumbnail> {
  return oneAtATime(async () => {
    const open = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    let metadata: sharp.Metadata;
    try {
      metadata = await open().metadata();
    } catch {
      throw new ThumbnailNotAnImageError();
    }
    if (!READABLE_FORMATS.has(metadata.format)) throw new ThumbnailNotAnImageError();
    const { width, height } = metadata.autoOrient;
    if (!isLargeEnough(width, height)) throw new ThumbnailTooSmallError(width, height, THUMBNAIL_MIN_WIDTH, THUMBNAIL_MIN_HEIGHT);
    if (width * height > MAX_INPUT_PIXELS) throw new ThumbnailTooManyPixelsError(width, height, MAX_INPUT_PIXELS / 1_000_000);
    let image: Buffer;
    try {
      image = await open()
        .rotate()
        .resize(THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      // A truncated or corrupt body whose header still read, or a picture over the pixel limit.
      throw new ThumbnailNotAnImageError();
    }
    return { image, hash: createHash('sha256').update(image).digest('hex').slice(0, THUMBNAIL_HASH_LENGTH) };
  });
}
