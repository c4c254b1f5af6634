import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../database/domain-events';
import { WalletRepository } from './wallet.repository';

/**
 * A player never exists without a wallet: when identity links a player profile, its wallet opens
 * in the same transaction (an in-transaction event), so both commit or neither does. Identity does
 * not know the wallet module.
 */
@Injectable()
export class OpenWalletOnPlayerLinked implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly wallets: WalletRepository,
  ) {}

  onModuleInit(): void {
    this.events.onInTransaction('player.linked', async ({ playerId }) => {
      await this.wallets.open(playerId);
    });
  }
}
