import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Declares } from '../../registry/declarations';
import { AuditModule } from '../audit';
import { BooksModule } from '../books';
import { DeveloperPortalModule } from '../developer-portal';
import { WalletModule } from '../wallet';
import { AdminPayoutsController } from './admin-payouts.controller';
import { PayoutMethod } from './payout-method.entity';
import { PayoutOutcomesService } from './payout-outcomes.service';
import { PayoutRun } from './payout-run.entity';
import { PayoutRunService } from './payout-run.service';
import { Payout } from './payout.entity';
import { PAYOUTS } from './payouts.declarations';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { PortalPayoutsController } from './portal-payouts.controller';
import { PayoutsPagesController } from './payouts-pages.controller';
import { StripeTransfers } from './stripe-transfers';

/** Developers get paid (CONTRACT §22): balances, payout methods, payout runs, mark-paid and fail, Stripe transfers. */
@Declares(PAYOUTS)
@Module({
  imports: [TypeOrmModule.forFeature([PayoutMethod, PayoutRun, Payout]), WalletModule, AuditModule, DeveloperPortalModule, BooksModule],
  controllers: [PortalPayoutsController, AdminPayoutsController, PayoutsPagesController],
  providers: [PayoutsRepository, PayoutsService, PayoutRunService, PayoutOutcomesService, StripeTransfers],
  exports: [PayoutsService],
})
export class PayoutsModule {}
