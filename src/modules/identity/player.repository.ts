import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { Player } from './player.entity';

/** Players: simple reads and writes through TypeORM's entity API, the XP increment as one statement. */
@Injectable()
export class PlayerRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get players() {
    return this.uow.manager.getRepository(Player);
  }

  /** The new player's id, or undefined when the account already has one (concurrent links wait for the first). */
  async insert(accountId: string, displayName: string): Promise<string | undefined> {
    const result = await this.players.createQueryBuilder().insert().values({ accountId, displayName }).orIgnore().returning('id').execute();
    return (result.raw as { id: string }[])[0]?.id;
  }

  async idOf(accountId: string): Promise<string | undefined> {
    return (await this.players.findOne({ select: { id: true }, where: { accountId } }))?.id;
  }

  async addXp(playerId: string, amount: number): Promise<{ xpBefore: number; xpAfter: number }> {
    const row = await this.uow.one<{ xp_after: number }>('UPDATE players SET xp = xp + $2 WHERE id = $1 RETURNING xp AS xp_after', [
      playerId,
      amount,
    ]);
    if (!row) throw new Error(`Player ${playerId} does not exist.`);
    return { xpBefore: row.xp_after - amount, xpAfter: row.xp_after };
  }

  async xp(playerId: string): Promise<number> {
    return (await this.uow.one<{ xp: number }>('SELECT xp FROM players WHERE id = $1', [playerId]))?.xp ?? 0;
  }

  async setInitials(playerId: string, initials: string): Promise<void> {
    await this.players.update({ id: playerId }, { initials });
  }
}
