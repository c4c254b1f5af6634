import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IdempotencyKeyProperty, IdProperty, PageLimitProperty } from '../../http/params';
import { LEDGER_KIND_NAMES, LEDGER_KINDS, ledgerKindsWhere } from './ledger-append';

export class WalletQueryDto {
  @PageLimitProperty()
  limit?: number;

  @ApiPropertyOptional({ description: 'An entry id: list the entries older than it (the previous page\'s `nextBefore`)', example: '1042', pattern: '^[0-9]{1,18}$' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{1,18}$/, { message: 'use the id of one of your wallet entries (up to 18 digits)' })
  before?: string;
}

export class LedgerEntryDto {
  @ApiProperty({ description: 'Entry id', example: '1042' })
  id!: string;

  @ApiProperty({ description: `Coins added (positive: ${ledgerKindsWhere({ coins: 'in' }).join(', ')}) or taken (negative: ${ledgerKindsWhere({ coins: 'out' }).join(', ')})`, example: -2 })
  delta!: number;

  @ApiProperty({ description: 'The wallet balance right after this entry', example: 18, minimum: 0 })
  balanceAfter!: number;

  @ApiProperty({
    enum: LEDGER_KIND_NAMES,
    example: 'debit',
    description: LEDGER_KIND_NAMES.map((k) => `\`${k}\` ${LEDGER_KINDS[k].means}`).join(', '),
  })
  kind!: string;

  @ApiProperty({ description: 'Why coins were added or taken (not for debits)', type: 'string', nullable: true, example: null })
  reason!: string | null;

  @ApiProperty({ description: 'The insertion this debit paid for, or this void returned', type: 'string', nullable: true, example: '0b7f4c63-4a0e-4d36-9f5e-3f1d2c4b5a69' })
  insertionId!: string | null;

  @ApiProperty({ description: 'The game of that insertion (debits and voids)', type: 'string', nullable: true, example: 'coin-clicker' })
  gameSlug!: string | null;

  @ApiProperty({ description: 'The purchase this entry credited or took back (purchase and refund entries)', type: 'string', nullable: true, example: null })
  purchaseId!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: Date;
}

export class WalletDto {
  @ApiProperty({ description: 'Balance in coins', example: 18, minimum: 0 })
  balance!: number;

  @ApiProperty({ type: [LedgerEntryDto], description: 'Newest first' })
  entries!: LedgerEntryDto[];

  @ApiProperty({ description: 'Pass as `before` for the next (older) page; null at the end', type: 'string', nullable: true, example: null })
  nextBefore!: string | null;
}

export class CreditCoinsDto {
  @ApiProperty({ description: 'Coins to add, 1 to 100000', example: 20, minimum: 1, maximum: 100000 })
  @IsInt()
  @Min(1)
  @Max(100000)
  coins!: number;

  @ApiProperty({ description: 'Why (kept on the ledger entry), 1 to 200 characters', example: 'Welcome bonus', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  reason!: string;

  @IdempotencyKeyProperty()
  idempotencyKey!: string;
}

export class CreditResultDto {
  @ApiProperty({ description: 'The credit ledger entry', example: '1043' })
  entryId!: string;

  @ApiProperty({ description: 'The balance right after the credit', example: 38, minimum: 0 })
  balance!: number;

  @ApiProperty({ description: 'True when this key was already applied: the original answer, credited once' })
  replayed!: boolean;
}

class MoneyTotalsDto {
  @ApiProperty({ description: 'Paid insertions', example: 3 })
  insertions!: number;

  @ApiProperty({ description: 'Coins spent on them', example: 6 })
  coins!: number;

  @ApiProperty({ description: 'Their value in US dollars (1 coin = 0.25), an exact decimal string', example: '1.5', pattern: '^\\d+(\\.\\d{1,3})?$' })
  grossUsd!: string;

  @ApiProperty({ description: 'The developer\'s 70% of grossUsd, an exact decimal string', example: '1.05', pattern: '^\\d+(\\.\\d{1,3})?$' })
  earnedUsd!: string;
}

export class GameEarningsDto extends MoneyTotalsDto {
  @ApiProperty({ example: '2d3c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a' })
  gameId!: string;

  @ApiProperty({ example: 'coin-clicker' })
  slug!: string;
}

export class EarningsDto {
  @ApiProperty({ enum: ['USD'], example: 'USD' })
  currency!: 'USD';

  @ApiProperty({ type: [GameEarningsDto], description: 'Every game of the developer, games without insertions included' })
  games!: GameEarningsDto[];

  @ApiProperty({ type: MoneyTotalsDto })
  total!: MoneyTotalsDto;
}

export class DailyEarningsQueryDto {
  @ApiPropertyOptional({ description: 'How many UTC calendar days to list, the last one today: 1 to 366', example: 30, minimum: 1, maximum: 366, default: 30, type: 'integer' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(366)
  days?: number;

  @IdProperty('Only this game (one of the developer\'s); all games when left out', { optional: true })
  gameId?: string;
}

/** A day's movements: voids (§19) count on the day of the void, so a day may come out negative. */
export class DayEarningsDto {
  @ApiProperty({ description: 'The UTC calendar day', example: '2026-11-24', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
  date!: string;

  @ApiProperty({ description: 'Paid insertions that day', example: 3, type: 'integer' })
  insertions!: number;

  @ApiProperty({ description: 'Coins spent on them', example: 6, type: 'integer' })
  coins!: number;

  @ApiProperty({ description: 'Their value in US dollars (1 coin = 0.25), an exact decimal string', example: '1.5', pattern: '^-?\\d+(\\.\\d{1,3})?$' })
  grossUsd!: string;

  @ApiProperty({ description: 'The developer\'s 70% of grossUsd, an exact decimal string', example: '1.05', pattern: '^-?\\d+(\\.\\d{1,3})?$' })
  earnedUsd!: string;
}

export class DailyEarningsDto {
  @ApiProperty({ enum: ['USD'], example: 'USD' })
  currency!: 'USD';

  @ApiProperty({
    type: [DayEarningsDto],
    description: 'Exactly `days` entries, one per UTC calendar day, oldest first, the last one today; days without paid insertions as zeros',
    example: [
      { date: '2026-11-23', insertions: 0, coins: 0, grossUsd: '0', earnedUsd: '0' },
      { date: '2026-11-24', insertions: 3, coins: 6, grossUsd: '1.5', earnedUsd: '1.05' },
      { date: '2026-11-25', insertions: 1, coins: 1, grossUsd: '0.25', earnedUsd: '0.175' },
    ],
  })
  days!: DayEarningsDto[];
}
