import { Injectable } from '@nestjs/common';
import { PlayerRepository } from './player.repository';

/** Player profiles for other modules: XP and the saved high-score initials (read with the login session or the score's target). */
@Injectable()
export class PlayersService {
  constructor(private readonly players: PlayerRepository) {}

  /** Adds XP inside the caller's transaction (the row lock serialises concurrent unlocks). */
  addXp(playerId: string, amount: number): Promise<{ xpBefore: number; xpAfter: number }> {
    return this.players.addXp(playerId, amount);
  }

  xp(playerId: string): Promise<number> {
    return this.players.xp(playerId);
  }

  setPreferredInitials(playerId: string, initials: string): Promise<void> {
    return this.players.setInitials(playerId, initials);
  }
}
