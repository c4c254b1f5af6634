import { moneyText } from '../../http/pages/formats';
import { coinPacksOf, packView, priceCents } from './coin-packs';

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

  it('shows pack prices as pages write money (CONTRACT §17.2)', () => {
    expect(coinPacksOf([10, 40, 1000]).map((pack) => moneyText(packView(pack).priceUsd))).toEqual(['$2.50', '$10.00', '$250.00']);
    expect(moneyText(packView(coinPacksOf([1])[0]!).priceUsd)).toBe('$0.25');
  });
});
