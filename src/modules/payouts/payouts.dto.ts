import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ID_DOC, IdempotencyKeyProperty, IdProperty, PageCursorProperty, PageLimitProperty } from '../../http/params';
import { PAYOUT_METHOD_KINDS, PAYOUT_STATUSES, STRIPE_ACCOUNT_PATTERN } from './payouts.rules';
import type { PayoutMethodKind } from './payouts.rules';

const MONEY = { type: 'string', pattern: '^-?\\d+(\\.\\d{1,3})?$' } as const;

export class PayoutMethodDto {
  @ApiProperty({ enum: PAYOUT_METHOD_KINDS, description: '`sandbox`: an admin marks each payout paid or failed; `stripe`: a transfer to the Stripe Connect account' })
  kind!: PayoutMethodKind;

  @ApiPropertyOptional({ description: 'The Stripe Connect account (with `stripe` only)', example: 'acct_1Nv0FGQ9RKHgCVdK' })
  accountId?: string;
}

export class SetPayoutMethodDto {
  @ApiProperty({ enum: PAYOUT_METHOD_KINDS, description: 'How payouts reach the developer from the next run on' })
  @IsIn(PAYOUT_METHOD_KINDS)
  kind!: PayoutMethodKind;

  @ApiPropertyOptional({
    description: 'With `stripe` (required): the Stripe Connect account id, `acct_` and letters or digits. Ignored with `sandbox`.',
    example: 'acct_1Nv0FGQ9RKHgCVdK',
    pattern: STRIPE_ACCOUNT_PATTERN.source,
    maxLength: 64,
  })
  @ValidateIf((body: SetPayoutMethodDto) => body.kind === 'stripe')
  @IsString({ message: 'Stripe account id: enter the Stripe Connect account id, which begins with acct_.' })
  @MaxLength(64, { message: 'Stripe account id: use at most 64 characters.' })
  @Matches(STRIPE_ACCOUNT_PATTERN, { message: 'Stripe account id: enter the Stripe Connect account id, acct_ followed by letters and digits.' })
  accountId?: string;
}

export class PayoutMethodResponseDto {
  @ApiProperty({ type: PayoutMethodDto })
  payoutMethod!: PayoutMethodDto;
}

export class BalanceDto {
  @ApiProperty({ enum: ['USD'] }) currency!: 'USD';
  @ApiProperty({ ...MONEY, description: 'The developer ledger\'s sum (payouts pending or paid taken off, failed ones written back); negative after a void of money already paid out', example: '131.25' })
  balanceUsd!: string;
  @ApiProperty({ ...MONEY, description: 'Earnings of the last PAYOUT_HOLD_DAYS days (default 14)', example: '42.875' })
  heldUsd!: string;
  @ApiProperty({ ...MONEY, description: 'balanceUsd − heldUsd, never below 0', example: '88.375' })
  availableUsd!: string;
  @ApiProperty({ ...MONEY, description: 'PAYOUT_MINIMUM_USD (default 25): a run pays only from this much available', example: '25' })
  minimumPayoutUsd!: string;
  @ApiProperty({ type: PayoutMethodDto, nullable: true, description: 'Null until the developer sets one' })
  payoutMethod!: PayoutMethodDto | null;
}

export class PayoutDto {
  @ApiProperty(ID_DOC) payoutId!: string;
  @ApiProperty({ ...MONEY, description: 'Whole cents: what was available, floored to a cent', example: '88.37' }) amountUsd!: string;
  @ApiProperty({ enum: PAYOUT_STATUSES }) status!: string;
  @ApiProperty({ type: PayoutMethodDto, description: 'The payout method at the time of the run' }) method!: PayoutMethodDto;
  @ApiProperty({ type: 'string', nullable: true, description: 'Paid: the admin\'s reference or the Stripe transfer id' }) reference!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ format: 'date-time', type: 'string', nullable: true }) paidAt!: Date | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Failed: why' }) failureReason!: string | null;
}

export class AdminPayoutDto extends PayoutDto {
  @ApiProperty({ ...ID_DOC, description: 'The developer paid' }) developerId!: string;
}

export class PayoutsPageDto {
  @ApiProperty({ type: PayoutDto, isArray: true }) payouts!: PayoutDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'The next (older) page\'s cursor; null at the end' }) nextCursor!: string | null;
}

export class PayoutsQueryDto {
  @PageCursorProperty()
  cursor?: string;

  @PageLimitProperty()
  limit?: number;
}

export class CreatePayoutRunDto {
  @IdempotencyKeyProperty()
  idempotencyKey!: string;
}

export class PayoutRunDto {
  @ApiProperty(ID_DOC) runId!: string;
  @ApiProperty({ type: AdminPayoutDto, isArray: true, description: 'The run\'s payouts, one per developer paid' }) payouts!: AdminPayoutDto[];
}

export class PayoutIdParamsDto {
  @IdProperty('The payout id')
  payoutId!: string;
}

export class MarkPaidDto {
  @ApiProperty({ description: 'The payment\'s reference (a bank transfer\'s, ...), 1 to 200 characters', example: 'SEPA 2026-11-28 #4411', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  reference!: string;
}

export class FailPayoutDto {
  @ApiProperty({ description: 'Why it failed (shown to the developer), 1 to 200 characters', example: 'The bank returned the transfer', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  reason!: string;
}
