import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { UnauthenticatedError } from '../../errors/app-error';
import type { AccountContext } from '../../http/account-auth';
import { RateLimiter } from '../rate-limits';
import { AccountRepository } from './account.repository';
import { WrongPasswordError } from './identity.errors';
import { LoginSessionService } from './login-session.service';
import { PasswordService } from './password.service';

/** What a signed-in person changes about their own account from /me/settings (CONTRACT §20). */
@Injectable()
export class AccountSettingsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly passwords: PasswordService,
    private readonly loginSessions: LoginSessionService,
    private readonly limits: RateLimiter,
  ) {}

  /**
   * Proves the signed-in person's current password before a change asks it (CONTRACT §20: right
   * after validation, before any 404 or 409). The check counts as a login attempt on the account's
   * e-mail (CONTRACT §12 per-e-mail limit: 429 once reached, so a stolen cookie cannot guess on); a
   * wrong password stays counted (403 WRONG_PASSWORD), a right one is taken back. Returns the
   * stored hash that matched.
   */
  async proveCurrentPassword(auth: AccountContext, currentPassword: string): Promise<string> {
    const attempt = await this.limits.consume({ throttler: 'login-per-email', tracker: auth.email });
    let valid = false;
    let stored: string | undefined;
    try {
      const account = await this.accounts.findByEmail(auth.email);
      if (account?.id === auth.accountId) stored = account.password_hash;
      valid = stored !== undefined && (await this.passwords.verify(currentPassword, stored));
    } catch (error) {
      // Not a failed guess (the database or the hashing queue): it does not count.
      await this.limits.release(attempt);
      throw error;
    }
    if (stored === undefined) {
      // The e-mail moved away from this account since the session was read: sign in again.
      await this.limits.release(attempt);
      throw new UnauthenticatedError('Sign in first.');
    }
    if (!valid) throw new WrongPasswordError();
    await this.limits.release(attempt);
    return stored;
  }

  /**
   * A new password, the current one proved first (proveCurrentPassword). Every other login
   * session of the account ends, on every instance at once; this one stays.
   */
  async changePassword(auth: AccountContext, currentPassword: string, newPassword: string): Promise<void> {
    const stored = await this.proveCurrentPassword(auth, currentPassword);
    const passwordHash = await this.passwords.hash(newPassword);
    await this.uow.run(async () => {
      await this.accounts.setPasswordHash(auth.accountId, stored, passwordHash);
      await this.loginSessions.revokeAllBut(auth.accountId, auth.loginSessionId);
    });
  }
}
