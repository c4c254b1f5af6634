import { Injectable, Logger } from '@nestjs/common';
import { DomainEvents } from '../../database/domain-events';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { AuditActor, AuditService } from '../audit';
import { RateLimiter } from '../rate-limits';
import { EVERYONE } from '../rate-limits';
import { AccountRepository, AccountViewRow, AdminAccountRow } from './account.repository';
import { normalizeEmail } from './email-address';
import { EmailVerificationService } from './email-verification.service';
import { AccountBannedError, InvalidCredentialsError } from './identity.errors';
import { LoginChallengeService } from './login-challenge.service';
import { LoginSessionService } from './login-session.service';
import { PasswordService } from './password.service';
import { PlayerRepository } from './player.repository';
import { levelOf } from './player.rules';

export type Role = 'player' | 'developer' | 'admin';

export interface UserView {
  id: string;
  email: string;
  emailVerified: boolean;
  displayName: string;
  roles: Role[];
  linked: boolean;
}

/** The user object of the admin console (CONTRACT §18). */
/** A user as the admin console shows it (CONTRACT §18, §19). */
export interface AdminUserView extends UserView {
  /** Null when not linked. */
  balance: number | null;
  bannedAt: Date | null;
  walletFrozenAt: Date | null;
}

export interface MeView extends UserView {
  xp: number;
  level: number;
  balance: number | null;
  initials: string | null;
}

export function toUser(row: AccountViewRow): UserView {
  const roles: Role[] = [];
  if (row.player_id) roles.push('player');
  if (row.developer_id) roles.push('developer');
  if (row.is_admin) roles.push('admin');
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified,
    displayName: row.display_name,
    roles,
    linked: row.player_id !== null,
  };
}

export function toAdminUser(row: AdminAccountRow): AdminUserView {
  return { ...toUser(row), balance: row.balance, bannedAt: row.banned_at, walletFrozenAt: row.wallet_frozen_at };
}

/**
 * Sign-up, login, logout and the account views. Every e-mail that comes in goes through
 * normalizeEmail() here first: the same address for storage, lookup and the limits.
 */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger('Accounts');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly players: PlayerRepository,
    private readonly events: DomainEvents,
    private readonly passwords: PasswordService,
    private readonly loginSessions: LoginSessionService,
    private readonly verification: EmailVerificationService,
    private readonly limits: RateLimiter,
    private readonly audit: AuditService,
    private readonly challenges: LoginChallengeService,
  ) {}

  /**
   * Creates the account (and, unless declined, its player and wallet), signs it in, mails the
   * verification link. The sign-up limits ran before (route guard); the mail has limits of its own.
   */
  async signUp(
    input: { email: string; password: string; displayName: string; linkPlayer: boolean },
    clientAddress: string,
    userAgent: string | null = null,
  ): Promise<{ accountId: string; token: string }> {
    const email = normalizeEmail(input.email);
    const passwordHash = await this.passwords.hash(input.password);
    const { accountId, token, sendMail } = await this.uow.run(async () => {
      const accountId = await this.accounts.insert(email, passwordHash, input.displayName);
      if (input.linkPlayer) await this.linkInTransaction(accountId, input.displayName);
      const sendMail = await this.verification.issue(accountId, email);
      const token = await this.loginSessions.start(accountId, userAgent);
      return { accountId, token, sendMail };
    });
    const mail = await this.limits.check(...this.mailLimits(accountId, clientAddress));
    // In the background: a slow or unreachable mail server must not hold up (or fail) the sign-up.
    if (mail.allowed) void sendMail();
    else this.logger.warn({ accountId, retryAfterMs: mail.retryAfterMs }, 'Verification mail not sent: mail limit reached (the account can ask again later)');
    return { accountId, token };
  }

  /** Mails a new verification link to a signed-in account whose e-mail is not verified yet (429 past the mail limits). */
  async resendVerification(accountId: string, clientAddress: string): Promise<{ sent: boolean }> {
    const row = await this.accounts.view(accountId);
    if (!row) throw new NotFoundError('No such user.');
    if (row.email_verified) return { sent: false };
    await this.limits.consume(...this.mailLimits(accountId, clientAddress));
    const sendMail = await this.uow.run(() => this.verification.issue(accountId, row.email));
    void sendMail();
    return { sent: true };
  }

  private mailLimits(accountId: string, clientAddress: string) {
    return [
      { throttler: 'mail-per-account', tracker: accountId },
      { throttler: 'mail-per-address', tracker: clientAddress },
      { throttler: 'mail-global', tracker: EVERYONE },
    ] as const;
  }

  /**
   * Login limits per client address and per e-mail (CONTRACT §2, §12). The attempt is checked and
   * counted as a failure in one atomic step before the password is, so of many parallel guesses
   * only the limit's worth are ever checked; at the limit even the right password answers 429.
   * A success takes its count back and clears its e-mail's failures: only failures count.
   */
  async logIn(
    rawEmail: string,
    password: string,
    clientAddress: string,
    userAgent: string | null = null,
  ): Promise<{ accountId: string; token: string } | { accountId: string; challenge: string }> {
    const email = normalizeEmail(rawEmail);
    const attempt = await this.limits.consume({ throttler: 'login-per-address', tracker: clientAddress }, { throttler: 'login-per-email', tracker: email });
    let account;
    let valid = false;
    try {
      account = await this.accounts.findByEmail(email);
      if (account) valid = await this.passwords.verify(password, account.password_hash);
      else await this.passwords.burn(password); // an unknown e-mail takes as long as a wrong password
    } catch (error) {
      // Not a failed guess (the database or the hashing queue): it does not count.
      await this.limits.release(attempt);
      throw error;
    }
    if (!account || !valid) throw new InvalidCredentialsError();
    // With two-factor on, the e-mail's failures are cleared only once the code is right too (CONTRACT §20: wrong codes count).
    const twoFactor = await this.challenges.requiredFor(account.id);
    await Promise.all([this.limits.release(attempt), twoFactor ? undefined : this.limits.reset('login-per-email', email)]);
    // Only after the password matched: a stranger learns nothing about the account (CONTRACT §18).
    if (account.banned) throw new AccountBannedError();
    // Stored before today's parameters (a legacy scrypt hash or a cheaper argon2id): upgrade it now that the password is known.
    if (this.passwords.needsRehash(account.password_hash)) await this.accounts.setPasswordHash(account.id, account.password_hash, await this.passwords.rehash(password));
    // Two-factor on: no login session yet, a challenge the code step takes (CONTRACT §20).
    if (twoFactor) return { accountId: account.id, challenge: await this.challenges.issue(account.id) };
    const token = await this.loginSessions.start(account.id, userAgent);
    return { accountId: account.id, token };
  }

  logOut(token: string | undefined): Promise<void> {
    return this.loginSessions.revoke(token);
  }

  async user(accountId: string): Promise<UserView> {
    const row = await this.accounts.view(accountId);
    if (!row) throw new NotFoundError('No such user.');
    return toUser(row);
  }

  /** The §18 user object; 404 for an unknown account. */
  async adminUser(accountId: string): Promise<AdminUserView> {
    const row = await this.accounts.adminView(accountId);
    if (!row) throw new NotFoundError('No such user.');
    return toAdminUser(row);
  }


  async me(accountId: string): Promise<MeView> {
    const row = await this.accounts.adminView(accountId);
    if (!row) throw new NotFoundError('No such user.');
    const xp = row.xp ?? 0;
    // The balance is a cross-context read of wallets.balance in the same statement (docs/architecture.md).
    const balance = row.player_id ? (row.balance ?? 0) : null;
    return { ...toUser(row), xp, level: levelOf(xp), balance, initials: row.player_id ? row.initials : null };
  }

  /** Links a player profile and wallet; `created` is false when the account already had one. */
  async linkPlayer(accountId: string, displayName: string): Promise<{ created: boolean; me: MeView }> {
    return this.uow.run(async () => {
      const created = await this.linkInTransaction(accountId, displayName);
      return { created, me: await this.me(accountId) };
    });
  }

  /**
   * The player and its wallet, together or not at all: the wallet module opens the wallet on
   * 'player.linked', an in-transaction event, inside this transaction.
   */
  async linkInTransaction(accountId: string, displayName: string): Promise<boolean> {
    const playerId = await this.players.insert(accountId, displayName);
    if (!playerId) return false;
    await this.events.publishInTransaction('player.linked', { accountId, playerId });
    return true;
  }

  /** A ready account for the demo world (start-up only): e-mail verified, player linked, optionally admin. */
  async createReadyAccount(input: { email: string; password: string; displayName: string; admin: boolean }): Promise<string> {
    const passwordHash = await this.passwords.hash(input.password);
    return this.uow.run(async () => {
      const accountId = await this.accounts.insert(normalizeEmail(input.email), passwordHash, input.displayName, true, input.admin);
      await this.linkInTransaction(accountId, input.displayName);
      return accountId;
    });
  }

  /** Follows a verification link: the account's e-mail becomes verified. */
  async verifyWithToken(token: string): Promise<UserView> {
    return this.uow.run(async () => this.user(await this.verification.verify(token)));
  }

  /** Admin action: marks an account's e-mail verified; audited when it was not verified yet. */
  async verifyEmail(actor: AuditActor, accountId: string): Promise<UserView> {
    return this.uow.run(async () => {
      const account = await this.accounts.lockForModeration(accountId);
      if (!account) throw new NotFoundError('No such user.');
      if (!account.email_verified) {
        await this.accounts.markVerified(account.id);
        await this.audit.record({ ...actor, action: 'user.verify_email', targetId: account.id });
      }
      return this.user(account.id);
    });
  }
}
