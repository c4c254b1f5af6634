import { coinPacksOf, displayUsd, packView, priceCents } from './coin-packs';

describe('coin packs', () => {
  it('prices each pack at face value, 1 coin = 0.25 USD, in exact integers', () => {
    const packs = coinPacksOf([10, 40, 100]);
    expect(packs.map(packView)).toEqual([
      { packId: 'pack-10', coins: 10, priceUsd: '2.5' },
      { packId: 'pack-40', coins: 40, priceUsd: '10' },
      { packId: 'pack-100', coins: 100, priceUsd: '25' },
    ]);
    expect(packs.map(priceCents)).toEqual([250, 1000, 2500]);
    expect(packView(coinPacksOf([1])[0]!).priceUsd).toBe('0.25');
    expect(packView(coinPacksOf([3])[0]!).priceUsd).toBe('0.75');
  });

  it('shows prices as people read them', () => {
    expect(displayUsd('2.5')).toBe('$2.50');
    expect(displayUsd('0.25')).toBe('$0.25');
    expect(displayUsd('10')).toBe('$10');
  });
});
