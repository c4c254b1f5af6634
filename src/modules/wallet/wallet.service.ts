import { Injectable } from '@nestjs/common';
import { WalletRepository } from './wallet.repository';

/** Wallets and their append-only ledger. Other modules use this service, never the tables. */
@Injectable()
export class WalletService {
  constructor(private readonly wallets: WalletRepository) {}

  /** Opens the wallet of a newly linked player (inside the caller's transaction). */
  openWallet(playerId: string): Promise<string> {
    return this.wallets.open(playerId);
  }

  walletIdOf(playerId: string): Promise<string | undefined> {
    return this.wallets.walletIdOf(playerId);
  }

  /** Balance in coins: the latest ledger entry's running balance (0 for an empty ledger). */
  balance(walletId: string): Promise<number> {
    return this.wallets.balance(walletId);
  }
}
