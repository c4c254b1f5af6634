import { AppError } from '../../errors/app-error';

export class AchievementNotFoundError extends AppError {
  constructor() {
    super('ACHIEVEMENT_NOT_FOUND', 'This game has no active achievement with that key.');
  }
}
