import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService } from '../audit';
import { AccountsService, AdminUserView } from '../identity';
import { WalletNotFoundError } from '../wallet';
import { WalletService } from '../wallet';

/**
 * An admin freezes or unfreezes a user's wallet (CONTRACT §19): a frozen wallet buys nothing and
 * inserts no coin; replays, sessions, scores and admin credits go on. A dispute freezes it too.
 * Only a change is audited: freezing a frozen wallet (or unfreezing one that is not) writes nothing.
 */
@Injectable()
export class WalletFreezeService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly wallets: WalletService,
    private readonly accounts: AccountsService,
    private readonly audit: AuditService,
  ) {}

  /** `reason`: the admin's why, kept in the audit entry (null: none given). */
  async freeze(actorId: string, userId: string, requestId: string | null, reason: string | null = null): Promise<AdminUserView> {
    await this.uow.run(async () => {
      const walletId = await this.requireWallet(userId);
      const { changed } = await this.wallets.freeze(walletId);
      if (changed) await this.audit.record({ actorId, action: 'wallet.freeze', targetId: userId, reason, details: { balance: await this.wallets.balance(walletId) }, requestId });
    });
    return this.accounts.adminUser(userId);
  }

  async unfreeze(actorId: string, userId: string, requestId: string | null): Promise<AdminUserView> {
    await this.uow.run(async () => {
      const walletId = await this.requireWallet(userId);
      const { frozenAt } = await this.wallets.unfreeze(walletId);
      if (frozenAt) await this.audit.record({ actorId, action: 'wallet.unfreeze', targetId: userId, details: { frozenAt: frozenAt.toISOString() }, requestId });
    });
    return this.accounts.adminUser(userId);
  }

  private async requireWallet(userId: string): Promise<string> {
    const walletId = await this.wallets.walletIdOfAccount(userId);
    if (!walletId) throw new WalletNotFoundError();
    return walletId;
  }
}
