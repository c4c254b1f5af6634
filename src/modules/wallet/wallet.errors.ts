import { AppError, NotFoundError } from '../../errors/app-error';

export class InsufficientCoinsError extends AppError {
  constructor(balance: number, coinsPerCredit: number) {
    super('INSUFFICIENT_COINS', `Not enough coins: this game needs ${coinsPerCredit} and the wallet holds ${balance}.`, {
      balance,
      coinsPerCredit,
    });
  }
}

export class WalletNotFoundError extends NotFoundError {
  constructor() {
    super('No such user, or the user has no wallet (no linked player profile).');
  }
}
