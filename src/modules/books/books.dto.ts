import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { BOOKS_CHECK_NAMES } from './books.checks';
import { MONTH_PATTERN } from './statement.rules';

const MONEY = { pattern: '^-?\\d+(\\.\\d{1,3})?$', description: 'US dollars, an exact decimal string (§16.33)' };

export class StatementMonthParamsDto {
  @ApiProperty({ description: 'The month, `YYYY-MM` (UTC); after this month: 400', example: '2026-11', pattern: MONTH_PATTERN.source })
  @IsString()
  @Matches(MONTH_PATTERN, { message: 'use a month as YYYY-MM, such as 2026-11' })
  month!: string;
}

export class StatementQueryDto {
  @ApiPropertyOptional({ enum: ['json', 'csv'], description: '`csv`: the statement as RFC 4180 CSV (text/csv, an attachment); JSON otherwise' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'use json or csv' })
  format?: 'json' | 'csv';
}

export class StatementLineDto {
  @ApiProperty({ description: 'Paid insertions made in the month (voided later or not)', example: 3, type: 'integer' })
  insertions!: number;
  @ApiProperty({ description: 'Coins spent on them', example: 6, type: 'integer' })
  coins!: number;
  @ApiProperty({ ...MONEY, example: '1.5' })
  grossUsd!: string;
  @ApiProperty({ ...MONEY, description: 'The developer\'s 70% of grossUsd', example: '1.05' })
  earnedUsd!: string;
  @ApiProperty({ ...MONEY, description: 'Earnings taken back by voids made in the month', example: '0.35' })
  voidedUsd!: string;
  @ApiProperty({ ...MONEY, description: 'earnedUsd − voidedUsd', example: '0.7' })
  netUsd!: string;
}

export class StatementGameDto extends StatementLineDto {
  @ApiProperty({ example: '2d3c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a' })
  gameId!: string;
  @ApiProperty({ example: 'coin-clicker' })
  slug!: string;
}

export class PayoutMethodViewDto {
  @ApiProperty({ enum: ['sandbox', 'stripe'] })
  kind!: string;
  @ApiPropertyOptional({ example: 'acct_1Nv0FGQ9RKHgCVdK', description: 'The Stripe Connect account (stripe only)' })
  accountId?: string;
}

export class StatementPayoutDto {
  @ApiProperty({ example: '6a1f9c2e-0b3d-4e5f-8a7b-9c0d1e2f3a4b' })
  payoutId!: string;
  @ApiProperty({ ...MONEY, example: '25.5' })
  amountUsd!: string;
  @ApiProperty({ enum: ['pending', 'paid', 'failed'] })
  status!: string;
  @ApiProperty({ type: PayoutMethodViewDto, description: 'The payout method at the time of the run' })
  method!: PayoutMethodViewDto;
  @ApiProperty({ type: String, nullable: true })
  reference!: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt!: Date;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  paidAt!: Date | null;
  @ApiProperty({ type: String, nullable: true })
  failureReason!: string | null;
}

export class StatementDto {
  @ApiProperty({ example: '2026-11' })
  month!: string;
  @ApiProperty({ enum: ['USD'] })
  currency!: 'USD';
  @ApiProperty({ type: [StatementGameDto], description: 'Every game of the developer, zero rows included' })
  games!: StatementGameDto[];
  @ApiProperty({ type: StatementLineDto })
  total!: StatementLineDto;
  @ApiProperty({ type: [StatementPayoutDto], description: 'The payouts made in the month, newest first' })
  payouts!: StatementPayoutDto[];
}

const DAY = { pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' };

export class ReconciliationQueryDto {
  @ApiPropertyOptional({ ...DAY, example: '2026-11-01', description: 'First day (UTC, inclusive); default the first of this month' })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({ ...DAY, example: '2026-11-28', description: 'Last day (UTC, inclusive); default today; after today or before `from`: 400' })
  @IsOptional()
  @IsString()
  to?: string;
}

export class ReconciliationCoinsDto {
  @ApiProperty({ type: 'integer', description: 'Coins credited by paid purchases' }) purchased!: number;
  @ApiProperty({ type: 'integer', description: 'Coins credited by admins' }) credited!: number;
  @ApiProperty({ type: 'integer', description: 'Coins spent on insertions' }) spent!: number;
  @ApiProperty({ type: 'integer', description: 'Coins given back by voids' }) voidedBack!: number;
  @ApiProperty({ type: 'integer', description: 'Coins taken back for refunds and disputes, less failed refunds given back' }) refundedBack!: number;
  @ApiProperty({ type: 'integer', description: 'Coins given back by won disputes' }) disputeWonBack!: number;
  @ApiProperty({ type: 'integer', description: 'Coins of erased accounts' }) forfeited!: number;
}

export class ReconciliationUsdDto {
  @ApiProperty({ ...MONEY, description: 'The price of the purchases credited' }) purchasesPaid!: string;
  @ApiProperty({ ...MONEY, description: 'Refunded by the provider (applied refund events)' }) refunded!: string;
  @ApiProperty({ ...MONEY, description: 'Disputed (applied dispute events)' }) disputed!: string;
  @ApiProperty({ ...MONEY, description: 'The value of coins a refund or dispute could not take back (already spent)' }) unrecovered!: string;
  @ApiProperty({ ...MONEY, description: 'The value of the coins spent on insertions' }) grossSpent!: string;
  @ApiProperty({ ...MONEY, description: 'The developers\' 70% of it' }) developerEarned!: string;
  @ApiProperty({ ...MONEY, description: 'Earnings taken back by voids' }) developerVoided!: string;
  @ApiProperty({ ...MONEY, description: 'Payouts made, less those that failed and came back' }) paidOut!: string;
  @ApiProperty({ ...MONEY, description: 'The platform\'s 30% of grossSpent, less its share of the voided insertions' }) platformShare!: string;
}

export class ReconciliationNowDto {
  @ApiProperty({ type: 'integer', description: 'The sum of every wallet\'s balance, now' }) walletBalances!: number;
  @ApiProperty({ ...MONEY, description: 'The sum of every developer\'s balance, now' }) developerBalancesUsd!: string;
}

export class BooksCheckDto {
  @ApiProperty({ enum: BOOKS_CHECK_NAMES }) name!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      '`problems`: each rule that does not hold, `{ rule, rows }` (at most 20 rows a rule); `totals` (coins_conserved): each term of the identity; ' +
      '`mismatchedEvents` (purchase_events): every event whose amount, currency, mode or body did not match, even when the check holds',
  })
  details!: Record<string, unknown>;
}

export class ReconciliationDto {
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-28' }) to!: string;
  @ApiProperty({ type: ReconciliationCoinsDto }) coins!: ReconciliationCoinsDto;
  @ApiProperty({ type: ReconciliationUsdDto }) usd!: ReconciliationUsdDto;
  @ApiProperty({ type: ReconciliationNowDto }) now!: ReconciliationNowDto;
  @ApiProperty({ type: [BooksCheckDto], description: 'Always the eight checks, in this order: ' + BOOKS_CHECK_NAMES.join(', ') }) checks!: BooksCheckDto[];
}
