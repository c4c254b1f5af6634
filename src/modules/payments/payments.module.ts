import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONFIG, Config } from '../../config';
import { IdempotencyModule } from '../idempotency';
import { RateLimitsModule } from '../rate-limits';
import { WalletModule } from '../wallet';
import { CheckoutController } from './checkout.controller';
import { RecordedPaymentEvent } from './payment-event.entity';
import { PaymentEventRepository } from './payment-event.repository';
import { PaymentEventsService } from './payment-events.service';
import { PAYMENT_PROVIDER } from './payment-provider';
import { PaymentWebhooksController } from './payment-webhooks.controller';
import { Purchase } from './purchase.entity';
import { PurchaseRepository } from './purchase.repository';
import { PurchasesController } from './purchases.controller';
import { PurchasesService } from './purchases.service';
import { SandboxCheckoutService } from './sandbox-checkout.service';
import { SandboxPaymentProvider } from './sandbox-payment.provider';
import { StripePaymentProvider } from './stripe-payment.provider';
import { Declares } from '../../registry/declarations';
import { PAYMENTS } from './payments.declarations';

/** Buying coins (CONTRACT §19): packs, purchases, the payment provider in use and its webhook. */
@Declares(PAYMENTS)
@Module({
  imports: [TypeOrmModule.forFeature([Purchase, RecordedPaymentEvent]), WalletModule, IdempotencyModule, RateLimitsModule],
  controllers: [PurchasesController, PaymentWebhooksController, CheckoutController],
  providers: [
    SandboxPaymentProvider,
    {
      provide: PAYMENT_PROVIDER,
      inject: [CONFIG, SandboxPaymentProvider],
      useFactory: (config: Config, sandbox: SandboxPaymentProvider) => (config.payments.provider === 'stripe' ? new StripePaymentProvider(config) : sandbox),
    },
    PurchaseRepository,
    PaymentEventRepository,
    PurchasesService,
    PaymentEventsService,
    SandboxCheckoutService,
  ],
  exports: [PurchasesService],
})
export class PaymentsModule {}
