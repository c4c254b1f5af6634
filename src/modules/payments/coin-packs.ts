import { MILLS_PER_COIN, millsToUsd } from '../wallet';

/** A pack on sale (CONTRACT §19): its coins at face value, 1 coin = 0.25 USD. */
export interface CoinPack {
  packId: string;
  coins: number;
  priceMills: number;
}

/** The packs of COIN_PACKS, smallest first; a pack's id is stable while its size stays on sale. */
export function coinPacksOf(coins: readonly number[]): CoinPack[] {
  return coins.map((n) => ({ packId: `pack-${n}`, coins: n, priceMills: n * MILLS_PER_COIN }));
}

export function packView(pack: CoinPack): { packId: string; coins: number; priceUsd: string } {
  return { packId: pack.packId, coins: pack.coins, priceUsd: millsToUsd(pack.priceMills) };
}

/** US cents, as payment providers count (1 coin = 25 cents). */
export function priceCents(pack: Pick<CoinPack, 'priceMills'>): number {
  return pack.priceMills / 10;
}
