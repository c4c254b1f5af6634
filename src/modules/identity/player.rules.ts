/** Pure rules of a player profile: the arcade level its XP gives (CONTRACT §10). */

/** Arcade level from XP (CONTRACT §10): 1 + floor(xp / 100). */
export function levelOf(xp: number): number {
  return 1 + Math.floor(xp / 100);
}

/** XP still needed to reach the next level (1 to 100). */
export function xpToNextLevel(xp: number): number {
  return levelOf(xp) * 100 - xp;
}
