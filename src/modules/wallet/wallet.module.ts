import { Module } from '@nestjs/common';
import { AdminCreditsService } from './admin-credits.service';
import { WalletController } from './wallet.controller';
import { WalletRepository } from './wallet.repository';
import { WalletService } from './wallet.service';

@Module({
  controllers: [WalletController],
  providers: [WalletRepository, WalletService, AdminCreditsService],
  exports: [WalletService],
})
export class WalletModule {}
