import { AppError } from '../../errors/app-error';

export class CoinRequiredError extends AppError {
  constructor(message = 'Insert a coin before submitting a score: this play session has no paid insertion.') {
    super('COIN_REQUIRED', message);
  }
}

/** CONTRACT §19.1: an admin voided the insertion, its coins went back to the player; it takes no score. */
export class InsertionVoidedError extends AppError {
  constructor() {
    super('INSERTION_VOIDED', 'This insertion was voided (its coins were returned): insert another coin to post a score.');
  }
}

export class InsertionAlreadyScoredError extends AppError {
  constructor() {
    super('INSERTION_ALREADY_SCORED', 'This insertion already has a score; insert another coin to play again.');
  }
}

export class ScoreOutOfRangeError extends AppError {
  constructor(maxScore: string) {
    super('SCORE_OUT_OF_RANGE', `The score is above this game's maximum of ${maxScore}.`, { maxScore: Number(maxScore) });
  }
}

export class ScoreNotFoundError extends AppError {
  constructor() {
    super('SCORE_NOT_FOUND', 'No such score of yours in this play session.');
  }
}
