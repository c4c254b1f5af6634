import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUniqueViolation } from '../../errors/database-errors';

@Injectable()
export class PlayerRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /** The new player's id, or undefined when the account already has one. */
  async insert(accountId: string, displayName: string): Promise<string | undefined> {
    try {
      const row = await this.uow.one<{ id: string }>(
        'INSERT INTO players (account_id, display_name) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING RETURNING id',
        [accountId, displayName],
      );
      return row?.id;
    } catch (error) {
      if (isUniqueViolation(error, 'players_account_key')) return undefined;
      throw error;
    }
  }

  async idOf(accountId: string): Promise<string | undefined> {
    return (await this.uow.one<{ id: string }>('SELECT id FROM players WHERE account_id = $1', [accountId]))?.id;
  }

  async addXp(playerId: string, amount: number): Promise<{ xpBefore: number; xpAfter: number }> {
    const row = await this.uow.one<{ xp_after: number }>('UPDATE players SET xp = xp + $2 WHERE id = $1 RETURNING xp AS xp_after', [
      playerId,
      amount,
    ]);
    if (!row) throw new Error(`Player ${playerId} does not exist.`);
    return { xpBefore: row.xp_after - amount, xpAfter: row.xp_after };
  }

  async initials(playerId: string): Promise<string | null> {
    return (await this.uow.one<{ initials: string | null }>('SELECT initials FROM players WHERE id = $1', [playerId]))?.initials ?? null;
  }

  async setInitials(playerId: string, initials: string): Promise<void> {
    await this.uow.query('UPDATE players SET initials = $2 WHERE id = $1', [playerId, initials]);
  }
}
