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
