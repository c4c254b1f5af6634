import { AppError } from '../../errors/app-error';

export class SlugTakenError extends AppError {
  constructor(slug: string) {
    super('SLUG_TAKEN', `The slug "${slug}" is already taken.`);
  }
}

export class VersionNotApprovedError extends AppError {
  constructor() {
    super('VERSION_NOT_APPROVED', 'Only an approved version can be published.');
  }
}

export class GameSuspendedError extends AppError {
  constructor() {
    super('GAME_SUSPENDED', 'The game is suspended by an administrator.');
  }
}

export class AchievementLimitReachedError extends AppError {
  constructor(limit: number) {
    super('ACHIEVEMENT_LIMIT_REACHED', `A game has at most ${limit} achievements, retired ones included.`);
  }
}

export class AchievementKeyTakenError extends AppError {
  constructor(key: string) {
    super('ACHIEVEMENT_KEY_TAKEN', `The game already has an achievement with key "${key}".`);
  }
}

export class AchievementKeyLockedError extends AppError {
  constructor() {
    super('ACHIEVEMENT_KEY_LOCKED', 'The key cannot change: a player has already unlocked this achievement.');
  }
}

export class LiveKeyRequiredError extends AppError {
  constructor() {
    super('LIVE_KEY_REQUIRED', 'This endpoint needs a live API key (svc_live_...); a test key was sent.');
  }
}

/** A thumbnail upload whose bytes are not a PNG, JPEG or WebP image this service can read. */
export class ThumbnailNotAnImageError extends AppError {
  constructor() {
    super('INVALID_REQUEST', 'Thumbnail: the file is not a PNG, JPEG or WebP image that can be read.');
  }
}

export class ThumbnailTooSmallError extends AppError {
  constructor(width: number, height: number, minWidth: number, minHeight: number) {
    super('INVALID_REQUEST', `Thumbnail: the image is ${width} × ${height} pixels; it must be at least ${minWidth} × ${minHeight} pixels.`);
  }
}

export class ThumbnailMissingError extends AppError {
  constructor() {
    super('INVALID_REQUEST', 'Thumbnail: send the image as the request body.');
  }
}

export class ThumbnailTooManyPixelsError extends AppError {
  constructor(width: number, height: number, maxMegapixels: number) {
    super('INVALID_REQUEST', `Thumbnail: the image is ${width} × ${height} pixels; it may have at most ${maxMegapixels} million pixels.`);
  }
}
