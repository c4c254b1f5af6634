import { AppError, NotFoundError } from '../../errors/app-error';

export class PayoutNotFoundError extends NotFoundError {
  constructor() {
    super('No such payout.');
  }
}

/** Paid and failed are final (CONTRACT §22): a paid payout cannot fail, a failed one cannot be paid. */
export class PayoutFinalError extends AppError {
  constructor(status: 'paid' | 'failed') {
    super(
      'CONFLICT',
      status === 'failed'
        ? 'This payout failed and its amount is back in the developer\'s balance: it cannot be marked paid. The next payout run pays it again.'
        : 'This payout was paid: it cannot be marked failed.',
      { status },
    );
  }
}
