/**
 * Pure rules of achievements (spec §2.7, CONTRACT §10): XP per unlock, the arcade level, and the
 * celebrations a first unlock earns.
 */

import { levelOf, xpToNextLevel } from '../identity/player.rules';

/** Every game achievement is worth this much XP (spec §2.7). */
export const ACHIEVEMENT_XP = 25;

// One definition of the arcade level (1 + floor(xp / 100)), shared with GET /api/me.
export { levelOf, xpToNextLevel };

export interface RewardItem {
  kind: 'achievement' | 'level-up';
  title: string;
  subtitle: string;
  icon: string;
}

export interface UnlockedDefinition {
  name: string;
  description: string;
  iconKey: string;
}

/**
 * The celebrations of a first unlock: the achievement itself, plus a level-up item when the
 * XP it added moved the player into a higher level (a test-mode unlock adds none: 0 -> 0).
 */
export function rewardsFor(achievement: UnlockedDefinition, xpBefore: number, xpAfter: number): RewardItem[] {
  const rewards: RewardItem[] = [
    {
      kind: 'achievement',
      title: achievement.name,
      subtitle: `Achievement unlocked · +${ACHIEVEMENT_XP} XP`,
      icon: achievement.iconKey,
    },
  ];
  const before = levelOf(xpBefore);
  const after = levelOf(xpAfter);
  if (after > before) {
    rewards.push({ kind: 'level-up', title: `Level ${after}`, subtitle: `You reached arcade level ${after}`, icon: 'star' });
  }
  return rewards;
}
