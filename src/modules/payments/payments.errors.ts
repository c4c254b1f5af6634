import { AppError, NotFoundError } from '../../errors/app-error';

/** A webhook whose signature is missing, wrong, or outside the ±5 minute window (CONTRACT §19). */
export class InvalidSignatureError extends AppError {
  constructor(message = 'The payment event\'s signature is missing, does not match, or its timestamp is more than 5 minutes from now.') {
    super('INVALID_SIGNATURE', message);
  }
}

export class PurchaseNotFoundError extends NotFoundError {
  constructor() {
    super('No such purchase.');
  }
}

export class UnknownPaymentProviderError extends NotFoundError {
  constructor() {
    super('No such payment provider here.');
  }
}
