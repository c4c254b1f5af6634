import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { AccountRepository } from './account.repository';
import { AccountsService } from './accounts.service';
import { normalizeEmail } from './email-address';
import { PasswordService } from './password.service';

/**
 * At start-up, when ADMIN_EMAIL and ADMIN_PASSWORD are set, makes sure that account exists,
 * verified, linked to a player, with role admin, and that ADMIN_PASSWORD signs it in.
 */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminBootstrap');

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly accountsService: AccountsService,
    private readonly passwords: PasswordService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { adminEmail, adminPassword: password } = this.config;
    if (!adminEmail || !password) return;
    const email = normalizeEmail(adminEmail);
    const fresh = await this.passwords.hash(password);
    const outcome = await this.uow.run(async (): Promise<'created' | 'existing' | 'password reset'> => {
      // Several instances may start at once against one database: one bootstraps at a time.
      await this.uow.query("SELECT pg_advisory_xact_lock(hashtext('arcade:admin-bootstrap'))");
      const existing = await this.accounts.findByEmail(email);
      let accountId: string;
      let passwordOk = true;
      if (existing) {
        accountId = existing.id;
        passwordOk = await this.passwords.verify(password, existing.password_hash);
        await this.accounts.makeAdmin(accountId, passwordOk && !this.passwords.needsRehash(existing.password_hash) ? undefined : fresh);
      } else {
        accountId = await this.accounts.insert(email, fresh, 'Admin', true, true);
      }
      await this.accountsService.linkInTransaction(accountId, existing?.display_name ?? 'Admin');
      return !existing ? 'created' : passwordOk ? 'existing' : 'password reset';
    });
    // Promoting an existing account resets its password to ADMIN_PASSWORD (README, "Admins"): said, never silent.
    if (outcome === 'password reset') this.logger.warn(`Admin account ready: ${email} (an existing account, promoted; its password was reset to ADMIN_PASSWORD)`);
    else this.logger.log(`Admin account ready: ${email}${outcome === 'created' ? ' (created)' : ''}`);
  }
}
