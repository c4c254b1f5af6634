import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { IdempotencyModule } from '../idempotency';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Wallet } from './wallet.entity';
import { InsertionVoid } from './insertion-void.entity';
import { LedgerEntry } from './ledger-entry.entity';
import { Insertion } from './insertion.entity';
import { DeveloperBalance } from './developer-balance.entity';
import { DeveloperLedgerEntry } from './developer-ledger-entry.entity';
import { AdminCreditsService } from './admin-credits.service';
import { OpenWalletOnPlayerLinked } from './player-linked.handler';
import { WalletController } from './wallet.controller';
import { WalletRepository } from './wallet.repository';
import { WalletService } from './wallet.service';
import { Declares } from '../../registry/declarations';
import { WALLET } from './wallet.declarations';

@Declares(WALLET)
@Module({
  imports: [TypeOrmModule.forFeature([Wallet, LedgerEntry, Insertion, InsertionVoid, DeveloperLedgerEntry, DeveloperBalance]), AuditModule, IdempotencyModule],
  controllers: [WalletController],
  providers: [WalletRepository, WalletService, AdminCreditsService, OpenWalletOnPlayerLinked],
  exports: [WalletService],
})
export class WalletModule {}
