import { Injectable } from '@nestjs/common';
import { DatabaseNotifications } from '../../database/notifications';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { AuditActor, AuditService } from '../audit';
import { AccountsService, AdminUserView, toAdminUser } from './accounts.service';
import { AccountRepository } from './account.repository';
import { CannotBanYourselfError } from './identity.errors';
import { LoginSessionService } from './login-session.service';

export type { AdminUserView } from './accounts.service';

const userNotFound = () => new NotFoundError('No such user.');

/**
 * Finding, banning and unbanning users (CONTRACT §18). A ban revokes every login session of the
 * user in its transaction; login sessions are read from PostgreSQL on every request (heartbeat,
 * insert-coin and score check the one they kept in their own statements), so every instance
 * refuses the user's cookies from the commit on. While banned, sign-in answers 403 ACCOUNT_BANNED
 * and the user's API keys 401 (both read `accounts.banned_at`; instances that keep valid keys in
 * memory drop the account's on the ban's notification).
 */
@Injectable()
export class UserModerationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly users: AccountsService,
    private readonly loginSessions: LoginSessionService,
    private readonly audit: AuditService,
    private readonly notifications: DatabaseNotifications,
  ) {}

  async search(query: string): Promise<AdminUserView[]> {
    return (await this.accounts.search(query)).map(toAdminUser);
  }

  /** Bans once: a repeat answers the user with the first `bannedAt` and records nothing. */
  ban(actor: AuditActor, userId: string, reason: string): Promise<AdminUserView> {
    return this.uow.run(async () => {
      const account = await this.accounts.lockForModeration(userId);
      if (!account) throw userNotFound();
      if (account.id === actor.actorId) throw new CannotBanYourselfError();
      if (!account.banned) {
        await this.accounts.setBanned(account.id, true);
        await this.loginSessions.revokeAllOf(account.id);
        await this.audit.record({ ...actor, action: 'user.ban', targetId: account.id, reason });
        // Instances that keep the account's API keys (ApiKeyCache) drop them when this commits.
        await this.notifications.publish('account', { accountId: account.id });
      }
      return this.users.adminUser(account.id);
    });
  }

  /** Lifts a ban; the sessions it revoked stay revoked (the user signs in again). */
  unban(actor: AuditActor, userId: string): Promise<AdminUserView> {
    return this.uow.run(async () => {
      const account = await this.accounts.lockForModeration(userId);
      if (!account) throw userNotFound();
      if (account.banned) {
        await this.accounts.setBanned(account.id, false);
        await this.audit.record({ ...actor, action: 'user.unban', targetId: account.id });
      }
      return this.users.adminUser(account.id);
    });
  }
}
