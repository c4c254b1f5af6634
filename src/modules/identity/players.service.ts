import { Injectable } from '@nestjs/common';
import { PlayerRepository } from './player.repository';

/** Arcade level from XP (CONTRACT §10): 1 + floor(xp / 100). */
export function levelOf(xp: number): number {
  return 1 + Math.floor(xp / 100);
}

/** XP still needed to reach the next level (1 to 100). */
export function xpToNextLevel(xp: number): number {
  return levelOf(xp) * 100 - xp;
}

/** Player profiles for other modules: XP and the saved high-score initials. */
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

  getPreferredInitials(playerId: string): Promise<string | null> {
    return this.players.initials(playerId);
  }

  setPreferredInitials(playerId: string, initials: string): Promise<void> {
    return this.players.setInitials(playerId, initials);
  }
}
