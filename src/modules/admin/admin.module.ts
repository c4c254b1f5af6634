import { WebhooksModule } from '../webhooks';
import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { BooksModule } from '../books';
import { DeveloperPortalModule } from '../developer-portal';
import { IdempotencyModule } from '../idempotency';
import { IdentityModule } from '../identity';
import { ScoringModule } from '../scoring';
import { PayoutsModule } from '../payouts';
import { WalletModule } from '../wallet';
import { AdminAuditController } from './admin-audit.controller';
import { AdminPagesController } from './admin-pages.controller';
import { AdminScoresController } from './admin-scores.controller';
import { AdminUsersController } from './admin-users.controller';
import { AdminController } from './admin.controller';
import { AdminPaymentsController } from './admin-payments.controller';
import { VoidInsertionService } from './void-insertion.service';
import { WalletFreezeService } from './wallet-freeze.service';
import { Declares } from '../../registry/declarations';
import { ADMIN } from './admin.declarations';

/** Operator tools over the exported services of identity, the developer portal, wallet, scoring and the audit log. */
@Declares(ADMIN)
@Module({
  imports: [IdentityModule, DeveloperPortalModule, WalletModule, ScoringModule, AuditModule, IdempotencyModule, PayoutsModule, BooksModule, WebhooksModule],
  controllers: [AdminController, AdminUsersController, AdminScoresController, AdminAuditController, AdminPaymentsController, AdminPagesController],
  providers: [WalletFreezeService, VoidInsertionService],
})
export class AdminModule {}
