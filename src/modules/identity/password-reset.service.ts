import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { MailService, passwordResetMail } from '../mail';
import { EVERYONE, RateLimiter } from '../rate-limits';
import { normalizeEmail } from './email-address';
import { AccountBannedError, InvalidResetTokenError } from './identity.errors';
import { LoginChallengeService } from './login-challenge.service';
import { LoginSessionService } from './login-session.service';
import { PasswordResetRepository } from './password-reset.repository';
import { PasswordService } from './password.service';
import { hashToken, newToken, TOKEN_PATTERN } from './random-token';

/** Reset links stay valid for 60 minutes (CONTRACT §20). */
const TOKEN_TTL_SECONDS = 60 * 60;

/**
 * Password reset by mailed link (CONTRACT §20, OWASP Forgot Password cheat sheet). A request is
 * answered the same whether or not an account has the e-mail, after the same work: the
 * per-address limit (429), the silent per-e-mail limit, a token made, hashed and stored (with no
 * account for an unknown e-mail: a decoy); the mail goes after the answer, in the background.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger('PasswordReset');

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly uow: UnitOfWork,
    private readonly tokens: PasswordResetRepository,
    private readonly passwords: PasswordService,
    private readonly loginSessions: LoginSessionService,
    private readonly limits: RateLimiter,
    private readonly mail: MailService,
    private readonly challenges: LoginChallengeService,
  ) {}

  async request(rawEmail: string, clientAddress: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    await this.limits.consume({ throttler: 'reset-per-address', tracker: clientAddress });
    // Beyond the per-e-mail limit or the service's mail budget (`RATE_LIMIT_MAIL_GLOBAL`, shared with every other mail)
    // nothing changes (no mail; earlier links stay valid), and the answer is the same. Both are counted for an unknown
    // e-mail too: the same work either way.
    const mailable = await this.limits.check({ throttler: 'reset-per-email', tracker: email }, { throttler: 'mail-global', tracker: EVERYONE });
    const token = newToken();
    const tokenHash = hashToken(token);
    if (!mailable.allowed) {
      this.logger.warn({ retryAfterMs: mailable.retryAfterMs }, 'Password-reset mail not sent: a mail limit is reached');
      return;
    }
    if (!(await this.tokens.issue(email, tokenHash, TOKEN_TTL_SECONDS))) return;
    const link = `${this.config.publicOrigin}/auth/reset-password?token=${token}`;
    // After the answer: a slow mail server must neither delay it nor tell a known e-mail apart.
    setImmediate(() => {
      this.mail.send({ to: email, ...passwordResetMail(link) }).catch((error: unknown) => {
        this.logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'Could not send the password-reset mail');
      });
    });
  }

  /**
   * Sets the new password with a live token and signs in: every other login session of the
   * account ends (on every instance: sessions are read per request), the e-mail's login failures
   * are cleared and the e-mail counts as verified. A banned account: 403, the token stays unused.
   */
  async reset(token: string, password: string, userAgent: string | null): Promise<{ accountId: string; token: string } | { accountId: string; challenge: string }> {
    if (!TOKEN_PATTERN.test(token)) throw new InvalidResetTokenError();
    const tokenHash = hashToken(token);
    // Checked before the (slow) hash, and again inside the transaction below.
    const found = await this.tokens.find(tokenHash);
    if (!found) throw new InvalidResetTokenError();
    if (found.banned) throw new AccountBannedError();
    const passwordHash = await this.passwords.hash(password);
    const session = await this.uow.run(async () => {
      const accountId = await this.tokens.use(tokenHash);
      if (!accountId) throw new InvalidResetTokenError();
      // Banned meanwhile: the rollback leaves the token unused.
      if (!(await this.tokens.setPassword(accountId, passwordHash))) throw new AccountBannedError();
      await this.loginSessions.revokeAllOf(accountId);
      // Two-factor on: the password is set, and the code step signs in (CONTRACT §20).
      if (await this.challenges.requiredFor(accountId)) return { accountId, challenge: await this.challenges.issue(accountId) };
      return { accountId, token: await this.loginSessions.start(accountId, userAgent) };
    });
    await this.limits.reset('login-per-email', found.email);
    return session;
  }

  /** One batch of the retention purge: tokens used, or expired by `now`. */
  purgeBatch(now: Date, limit: number): Promise<number> {
    return this.tokens.purgeBatch(now, limit);
  }
}
