import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

export interface LedgerEntryRow {
  id: string;
  wallet_id: string;
  seq: number;
  delta: number;
  balance_after: string;
  kind: 'credit' | 'debit';
  reason: string | null;
  created_at: Date;
}

/** The append-only ledger. The balance is the latest entry's running balance: one index probe. */
@Injectable()
export class WalletRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async open(playerId: string): Promise<string> {
    const row = await this.uow.one<{ id: string }>('INSERT INTO wallets (player_id) VALUES ($1) RETURNING id', [playerId]);
    return row!.id;
  }

  async walletIdOf(playerId: string): Promise<string | undefined> {
    const row = await this.uow.one<{ id: string }>('SELECT id FROM wallets WHERE player_id = $1', [playerId]);
    return row?.id;
  }

  async balance(walletId: string): Promise<number> {
    const row = await this.uow.one<{ balance_after: string }>(
      'SELECT balance_after FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq DESC LIMIT 1',
      [walletId],
    );
    return row ? Number(row.balance_after) : 0;
  }
}
