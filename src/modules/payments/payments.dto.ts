import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { ID_DOC, IdempotencyKeyProperty, IdProperty } from '../../http/params';

const MONEY = { pattern: '^\\d+(\\.\\d{1,3})?$' };

export class PackDto {
  @ApiProperty({ description: 'The pack to buy (`packId` of POST /api/me/purchases)', example: 'pack-10' })
  packId!: string;

  @ApiProperty({ description: 'Coins in the pack', example: 10, minimum: 1 })
  coins!: number;

  @ApiProperty({ description: 'Its price in US dollars at face value (1 coin = 0.25), an exact decimal string', example: '2.5', ...MONEY })
  priceUsd!: string;
}

export class PacksDto {
  @ApiProperty({ enum: ['USD'], example: 'USD' })
  currency!: 'USD';

  @ApiProperty({ type: [PackDto], description: 'The packs on sale (`COIN_PACKS`), smallest first' })
  packs!: PackDto[];
}

export class CreatePurchaseDto {
  @ApiProperty({ description: 'A `packId` from GET /api/shop/packs', example: 'pack-10', maxLength: 64 })
  @IsString()
  @MaxLength(64)
  packId!: string;

  @IdempotencyKeyProperty()
  idempotencyKey!: string;
}

export class PurchaseDto {
  @ApiProperty(ID_DOC)
  purchaseId!: string;

  @ApiProperty({ example: 'pack-10' })
  packId!: string;

  @ApiProperty({ example: 10, minimum: 1 })
  coins!: number;

  @ApiProperty({ description: 'US dollars, an exact decimal string', example: '2.5', ...MONEY })
  priceUsd!: string;

  @ApiProperty({
    enum: ['pending', 'paid', 'failed', 'refunded', 'disputed'],
    example: 'pending',
    description:
      'pending → paid or failed; failed → paid; paid → refunded (refunds reach the price) or disputed; refunded → disputed; refunded → paid (a refund failed); ' +
      'disputed → paid or refunded (the dispute was won: where it was before)',
  })
  status!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Where the player pays: this service\'s page `/checkout/{purchaseId}` with the sandbox provider (add `?return=<path>` to come back there), Stripe Checkout with Stripe. ' +
      'Null while the checkout is still opening at the provider (a repeat of the key meanwhile), and for a purchase whose checkout could not be opened (`failed`)',
    example: '/checkout/3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d',
  })
  checkoutUrl!: string | null;

  @ApiProperty({
    description: 'Coins a refund or dispute of this purchase could not take back (the wallet held fewer); 0 otherwise. A won dispute clears its share',
    example: 0,
    minimum: 0,
  })
  unrecoveredCoins!: number;

  @ApiProperty({
    description: 'Refunded so far in US dollars, an exact decimal string; "0" before any refund. The status stays `paid` until refunds reach the price, then `refunded`',
    example: '0',
    ...MONEY,
  })
  refundedUsd!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: Date;
}

export class PurchasesDto {
  @ApiProperty({ type: [PurchaseDto], description: 'The caller\'s purchases, newest first (the latest 100)' })
  purchases!: PurchaseDto[];
}

export class PurchaseIdParamsDto {
  @IdProperty('Purchase id')
  purchaseId!: string;
}

export class SandboxPayDto {
  @ApiProperty({
    description: 'The sandbox\'s test cards, spaces allowed: `4242 4242 4242 4242` pays, `4000 0000 0000 0002` is declined; any other number is refused (400) and changes nothing',
    example: '4242 4242 4242 4242',
    maxLength: 32,
  })
  @IsString()
  @Length(1, 32)
  cardNumber!: string;
}

export class WebhookAckDto {
  @ApiProperty({ enum: [true], example: true, description: 'The event was verified: applied now, earlier, kept for later, or not one that changes anything' })
  received!: true;
}

export class SandboxEventDto {
  @ApiProperty({ description: 'Event id: each is applied at most once', example: 'evt_3b9f0c' })
  id!: string;

  @ApiProperty({ enum: ['payment.succeeded', 'payment.failed', 'payment.refunded', 'payment.disputed', 'payment.dispute_won', 'payment.dispute_lost'], example: 'payment.succeeded' })
  type!: string;

  @ApiProperty(ID_DOC)
  purchaseId!: string;

  @ApiProperty({
    required: false,
    description:
      'Cents: for payment.succeeded, the amount paid (another than the pack\'s price credits nothing); for payment.refunded, this refund (capped at what is left of the price; without it, all that is left)',
    example: 250,
    minimum: 0,
  })
  amountCents?: number;

  @ApiProperty({ required: false, description: 'Currency, any case; another than usd moves nothing', example: 'usd' })
  currency?: string;

  @ApiProperty({ description: 'Unix seconds', example: 1796600000 })
  created!: number;
}
