/**
 * Money in exact integers (CONTRACT §3, §16.33). Amounts are "mills", thousandths of a US dollar:
 * 1 coin = 25 cents = 250 mills; the developer's 70% of a coin = 175 mills. Never floating point.
 */
export const MILLS_PER_COIN = 250;
export const DEVELOPER_MILLS_PER_COIN = 175;

export interface InsertionEarning {
  grossMills: number;
  earnedMills: number;
}

/** What one insertion of `coins` coins is worth, and the developer's 70% of it. */
export function earningFor(coins: number): InsertionEarning {
  if (!Number.isSafeInteger(coins) || coins < 1) throw new RangeError(`coins must be a positive integer, got ${coins}`);
  return { grossMills: coins * MILLS_PER_COIN, earnedMills: coins * DEVELOPER_MILLS_PER_COIN };
}

/** Mills as a US-dollar decimal string with no more decimals than needed: 1500 → "1.5", 175 → "0.175". */
export function millsToUsd(mills: bigint | number | string): string {
  const value = BigInt(mills);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 1000n;
  const fraction = (abs % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The inverse of millsToUsd: "1.05" → 1050, "-0.175" → -175. */
export function usdToMills(usd: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,3}))?$/.exec(usd);
  if (!match) throw new RangeError(`not a money string: ${usd}`);
  const mills = Number(match[2]) * 1000 + Number((match[3] ?? '').padEnd(3, '0'));
  return match[1] ? -mills : mills;
}
