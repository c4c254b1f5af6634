import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { WalletService } from '../wallet/wallet.service';
import { AccountRepository, AccountViewRow } from './account.repository';
import { EmailVerificationService } from './email-verification.service';
import { InvalidCredentialsError } from './identity.errors';
import { LoginSessionService } from './login-session.service';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { PlayerRepository } from './player.repository';
import { levelOf } from './players.service';

export type Role = 'player' | 'developer' | 'admin';

export interface UserView {
  id: string;
  email: string;
  emailVerified: boolean;
  displayName: string;
  roles: Role[];
  linked: boolean;
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

/** Sign-up, login, logout and the account views. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly players: PlayerRepository,
    private readonly wallets: WalletService,
    private readonly passwords: PasswordService,
    private readonly loginSessions: LoginSessionService,
    private readonly verification: EmailVerificationService,
    private readonly throttle: LoginThrottleService,
  ) {}

  /** Creates the account (and, unless declined, its player and wallet), signs it in, mails the verification link. */
  async signUp(input: { email: string; password: string; displayName: string; linkPlayer: boolean }): Promise<{ accountId: string; token: string }> {
    const passwordHash = await this.passwords.hash(input.password);
    const { accountId, token, sendMail } = await this.uow.run(async () => {
      const accountId = await this.accounts.insert(input.email, passwordHash, input.displayName);
      if (input.linkPlayer) await this.linkInTransaction(accountId, input.displayName);
      const sendMail = await this.verification.issue(accountId, input.email);
      const token = await this.loginSessions.start(accountId);
      return { accountId, token, sendMail };
    });
    // In the background: a slow or unreachable mail server must not hold up (or fail) the sign-up.
    void sendMail();
    return { accountId, token };
  }

  /** The limits per client address and per e-mail are checked before the password; failures count toward them. */
  async logIn(email: string, password: string, clientAddress: string): Promise<{ accountId: string; token: string }> {
    await this.throttle.assertAllowed(email, clientAddress);
    const account = await this.accounts.findByEmail(email);
    let valid = false;
    if (account) valid = await this.passwords.verify(password, account.password_hash);
    else await this.passwords.burn(password); // an unknown e-mail takes as long as a wrong password
    if (!account || !valid) {
      await this.throttle.recordFailure(email, clientAddress);
      throw new InvalidCredentialsError();
    }
    await this.throttle.recordSuccess(email);
    const token = await this.loginSessions.start(account.id);
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

  async me(accountId: string): Promise<MeView> {
    const row = await this.accounts.view(accountId);
    if (!row) throw new NotFoundError('No such user.');
    const xp = row.xp ?? 0;
    let balance: number | null = null;
    if (row.player_id) {
      const walletId = await this.wallets.walletIdOf(row.player_id);
      balance = walletId ? await this.wallets.balance(walletId) : 0;
    }
    return { ...toUser(row), xp, level: levelOf(xp), balance, initials: row.player_id ? row.initials : null };
  }

  /** Links a player profile and wallet; `created` is false when the account already had one. */
  async linkPlayer(accountId: string, displayName: string): Promise<{ created: boolean; me: MeView }> {
    const created = await this.uow.run(() => this.linkInTransaction(accountId, displayName));
    return { created, me: await this.me(accountId) };
  }

  /** The player and its wallet, together or not at all. */
  async linkInTransaction(accountId: string, displayName: string): Promise<boolean> {
    const playerId = await this.players.insert(accountId, displayName);
    if (!playerId) return false;
    await this.wallets.openWallet(playerId);
    return true;
  }

  /** A ready account for the demo world (start-up only): e-mail verified, player linked, optionally admin. */
  async createReadyAccount(input: { email: string; password: string; displayName: string; admin: boolean }): Promise<string> {
    const passwordHash = await this.passwords.hash(input.password);
    return this.uow.run(async () => {
      const accountId = await this.accounts.insert(input.email, passwordHash, input.displayName, true, input.admin);
      await this.linkInTransaction(accountId, input.displayName);
      return accountId;
    });
  }

  /** Follows a verification link: the account's e-mail becomes verified. */
  async verifyWithToken(token: string): Promise<UserView> {
    return this.user(await this.verification.verify(token));
  }

  /** Admin action: marks an account's e-mail verified. */
  async verifyEmail(accountId: string): Promise<UserView> {
    if (!(await this.accounts.markVerified(accountId))) throw new NotFoundError('No such user.');
    return this.user(accountId);
  }
}
