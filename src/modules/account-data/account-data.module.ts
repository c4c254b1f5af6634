import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { DeveloperPortalModule } from '../developer-portal';
import { IdentityModule } from '../identity';
import { RateLimitsModule } from '../rate-limits';
import { AccountDataController } from './account-data.controller';
import { EraseAccountService } from './erase-account.service';
import { ExportAccountDataService } from './export-account-data.service';
import { Declares } from '../../registry/declarations';
import { ACCOUNT_DATA } from './account-data.declarations';

/**
 * A person's own data across the modules (CONTRACT §20): the export and the erasure. Owns no table:
 * each part is read or changed by the module that owns it (their `account-data.ts` functions and
 * services), composed here in one transaction.
 */
@Declares(ACCOUNT_DATA)
@Module({
  imports: [IdentityModule, DeveloperPortalModule, AuditModule, RateLimitsModule],
  controllers: [AccountDataController],
  providers: [ExportAccountDataService, EraseAccountService],
})
export class AccountDataModule {}
