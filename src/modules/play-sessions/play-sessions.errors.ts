import { AppError, NotFoundError } from '../../errors/app-error';

export class GameUnavailableError extends AppError {
  constructor() {
    super('GAME_UNAVAILABLE', 'This game cannot be played: it is unknown, unpublished, suspended or has no playable version.');
  }
}

export class SessionNotFoundError extends AppError {
  constructor() {
    super('SESSION_NOT_FOUND', 'No such play session for this player.');
  }
}

export class SessionExpiredError extends AppError {
  constructor() {
    super('SESSION_EXPIRED', 'This play session has ended or timed out: start a new one.');
  }
}

/** Spec §4.8: the verification 404 also says `valid: false`. */
export class InsertionNotFoundError extends NotFoundError {
  constructor() {
    super('No such insertion for this developer.', { valid: false });
  }
}
