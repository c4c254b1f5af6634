import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { ForbiddenError, UnauthenticatedError } from '../../errors/app-error';
import { AccountAuthenticator, AccountContext, AuthenticatedRequest, CookieAuthRequirement } from '../../http/account-auth';
import { allowedOrigins, assertSameOrigin } from '../../http/same-origin';
import { AccountNotLinkedError, EmailNotVerifiedError, TwoFactorRequiredError } from './identity.errors';
import { LoginSessionService } from './login-session.service';
import { TwoFactorService } from './two-factor.service';

/**
 * Cookie authentication and authorisation in the order of CONTRACT §16.17: signed in (401), same
 * origin (403 FORBIDDEN), e-mail verified (403), player linked (403), role (403 FORBIDDEN). Run by
 * the global AuthGuard; one login-session read per request, or none for a route whose statement
 * checks the session itself (PlayerAuth({ sessionCheckedByStatement: true })).
 */
@Injectable()
export class CookieAuthenticator extends AccountAuthenticator {
  private readonly origins: Set<string>;
  private readonly adminRequire2fa: boolean;

  constructor(
    private readonly loginSessions: LoginSessionService,
    private readonly twoFactor: TwoFactorService,
    @Inject(CONFIG) config: Config,
  ) {
    super();
    this.origins = allowedOrigins(config);
    this.adminRequire2fa = config.adminRequire2fa;
  }

  async adminAllowed(account: AccountContext): Promise<boolean> {
    return account.isAdmin && (!this.adminRequire2fa || (await this.twoFactor.isOn(account.accountId)));
  }

  currentAccount(request: AuthenticatedRequest): Promise<AccountContext | undefined> {
    return this.loginSessions.fromRequest(request);
  }

  async authenticate(request: AuthenticatedRequest, requirement: CookieAuthRequirement): Promise<void> {
    const auth = requirement.sessionCheckedByStatement ? await this.loginSessions.fromRequestKept(request) : await this.loginSessions.fromRequest(request);
    if (requirement.kind === 'optional') {
      request.auth = auth;
      return;
    }
    if (!auth) throw new UnauthenticatedError('Sign in first.');
    assertSameOrigin(request, this.origins);
    if (requirement.emailVerified && !auth.emailVerified) throw new EmailNotVerifiedError();
    if (requirement.kind === 'player' && (auth.playerId === null || auth.walletId === null)) throw new AccountNotLinkedError();
    if (requirement.kind === 'developer' && auth.developerId === null) {
      throw new ForbiddenError('This needs a developer account: create one with POST /api/portal/developer.');
    }
    if (requirement.kind === 'admin' && !auth.isAdmin) throw new ForbiddenError('This needs an administrator.');
    if (requirement.kind === 'admin' && !(await this.adminAllowed(auth))) throw new TwoFactorRequiredError();
    request.auth = auth;
  }
}
