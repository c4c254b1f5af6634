import { AppError } from '../../errors/app-error';

export class IdempotencyKeyConflictError extends AppError {
  constructor() {
    super('IDEMPOTENCY_KEY_CONFLICT', 'This idempotency key was already used for a different request.');
  }
}
