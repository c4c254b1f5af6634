import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ScoringModule } from '../scoring/scoring.module';
import { WalletModule } from '../wallet/wallet.module';
import { AdminController } from './admin.controller';
import { AdminPaymentsController } from './admin-payments.controller';
import { VoidInsertionService } from './void-insertion.service';
import { WalletFreezeService } from './wallet-freeze.service';

/** Operator tools; uses the exported services of identity, the developer portal, wallet, scoring and audit. */
@Module({
  imports: [WalletModule, ScoringModule, AuditModule],
  controllers: [AdminController, AdminPaymentsController],
  providers: [WalletFreezeService, VoidInsertionService],
})
export class AdminModule {}
