import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { UnauthenticatedError } from '../../errors/app-error';
import type { AccountContext } from '../../http/account-auth';
import { AuditService } from '../audit';
import { ApiKeysService, developerForErasure, eraseDeveloperName } from '../developer-portal';
import { AccountErasureService } from '../identity';
import { forfeitWallet } from '../wallet';
import { deleteWebhooksOfErasedDeveloper } from '../webhooks';
import { AccountNotErasableError } from './account-data.errors';

/**
 * `POST /api/me/delete` (CONTRACT §20): a person erases their own account, at once and in one
 * transaction. The current password first (403 WRONG_PASSWORD, counted as a failed login), then
 * the 409s: an admin, or a developer with a published game. Then: the API keys revoked (each
 * audited as `key.revoke`, as its owner revoking it would be), the developer's name replaced and its
 * webhook endpoints deleted (nothing more is sent to them), the wallet's coins forfeited
 * (ledger kind `forfeit`), identity's personal data erased (e-mail, display name, password hash,
 * two-factor data, login sessions, pending links), and one `user.erase` audit entry with no
 * personal data. Money and moderation rows stay, tied to the account's id.
 */
@Injectable()
export class EraseAccountService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly identity: AccountErasureService,
    private readonly apiKeys: ApiKeysService,
    private readonly audit: AuditService,
  ) {}

  async erase(auth: AccountContext, currentPassword: string, requestId: string | null): Promise<void> {
    await this.identity.proveCurrentPassword(auth, currentPassword);
    await this.uow.run(async () => {
      const account = await this.identity.lockForErasure(auth.accountId);
      if (!account) throw new UnauthenticatedError('Sign in first.');
      if (account.isAdmin) throw new AccountNotErasableError('admin');
      const developer = await developerForErasure(this.uow, account.id);
      if (developer?.published) throw new AccountNotErasableError('published');
      const actor = { actorId: account.id, requestId };
      let removedWebhooks = 0;
      if (developer) {
        for (const keyId of developer.liveKeyIds) await this.apiKeys.revoke(actor, developer.developerId, keyId);
        await eraseDeveloperName(this.uow, developer.developerId);
        removedWebhooks = await deleteWebhooksOfErasedDeveloper(this.uow, developer.developerId);
      }
      const forfeited = account.playerId ? await forfeitWallet(this.uow, account.playerId) : null;
      await this.identity.erase(account.id);
      await this.audit.record({
        ...actor,
        action: 'user.erase',
        targetId: account.id,
        details: { forfeitedCoins: forfeited?.coins ?? 0, revokedKeys: developer?.liveKeyIds.length ?? 0, removedWebhooks },
      });
    });
  }
}
