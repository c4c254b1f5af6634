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

/** CONTRACT §19: a disputed payment froze the wallet until an admin unfreezes it. */
export class WalletFrozenError extends AppError {
  constructor() {
    super('WALLET_FROZEN', 'This wallet is frozen after a payment dispute: no coins can be spent or bought until an administrator unfreezes it.');
  }
}
