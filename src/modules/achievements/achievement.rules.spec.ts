import { levelOf, rewardsFor, xpToNextLevel } from './achievement.rules';

const def = { name: 'First Blood', description: 'Win once', iconKey: 'trophy' };

describe('levelOf', () => {
  it.each([
    [0, 1],
    [99, 1],
    [100, 2],
    [175, 2],
    [200, 3],
    [1250, 13],
  ])('xp %i is level %i', (xp, level) => {
    expect(levelOf(xp)).toBe(level);
  });
});

describe('xpToNextLevel', () => {
  it.each([
    [0, 100],
    [25, 75],
    [99, 1],
    [100, 100],
    [175, 25],
  ])('xp %i needs %i more', (xp, more) => {
    expect(xpToNextLevel(xp)).toBe(more);
    expect(levelOf(xp + more)).toBe(levelOf(xp) + 1);
  });
});

describe('rewardsFor', () => {
  it('gives the achievement item alone when the level stays', () => {
    expect(rewardsFor(def, 0, 25)).toEqual([{ kind: 'achievement', title: 'First Blood', subtitle: expect.any(String), icon: 'trophy' }]);
  });

  it('adds a level-up item when the level rises (the fourth achievement from zero)', () => {
    const rewards = rewardsFor(def, 75, 100);
    expect(rewards.map((r) => r.kind)).toEqual(['achievement', 'level-up']);
    expect(rewards[1]).toEqual({ kind: 'level-up', title: 'Level 2', subtitle: expect.any(String), icon: expect.any(String) });
  });

  it('gives string fields only', () => {
    for (const item of rewardsFor(def, 90, 115)) {
      for (const field of ['kind', 'title', 'subtitle', 'icon'] as const) expect(typeof item[field]).toBe('string');
    }
  });
});
