import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditActor, AuditService } from '../audit';
import { IdempotencyService, IdempotentResult } from '../idempotency';
import { WalletNotFoundError } from './wallet.errors';
import { WalletService } from './wallet.service';

export interface CreditAnswer {
  entryId: string;
  balance: number;
  replayed: boolean;
}

/** An administrator adds coins to a user's wallet, exactly once per idempotency key (CONTRACT §4). */
@Injectable()
export class AdminCreditsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly wallets: WalletService,
    private readonly idempotency: IdempotencyService,
    private readonly audit: AuditService,
  ) {}

  /** Audited once, with the credit: a replay records nothing. */
  async credit(actor: AuditActor, userId: string, input: { coins: number; reason: string; idempotencyKey: string }): Promise<IdempotentResult<CreditAnswer>> {
    const request = {
      caller: `account:${actor.actorId}` as const,
      key: input.idempotencyKey,
      fingerprint: this.idempotency.fingerprint('admin-credit', userId, input),
      checkPath: async () => {
        if (!(await this.wallets.walletIdOfAccount(userId))) throw new WalletNotFoundError();
      },
    };
    return this.uow.run(() =>
      this.idempotency.execute(request, 201, async () => {
        const walletId = await this.wallets.walletIdOfAccount(userId);
        if (!walletId) throw new WalletNotFoundError();
        const { entryId, balance } = await this.wallets.credit(walletId, input.coins, input.reason);
        // A uuid that found a wallet; PostgreSQL prints uuids in lower case, the audit log does too.
        const targetId = userId.toLowerCase();
        await this.audit.record({ ...actor, action: 'wallet.credit', targetId, reason: input.reason, details: { coins: input.coins, entryId } });
        return { entryId, balance, replayed: false };
      }),
    );
  }
}
