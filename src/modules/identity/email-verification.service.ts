import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { AccountRepository } from './account.repository';
import { EmailVerificationRepository } from './email-verification.repository';
import { InvalidVerificationTokenError } from './identity.errors';
import { MailService, verificationMail } from '../mail';
import { hashToken, newToken, TOKEN_PATTERN } from './random-token';

/** Verification links stay valid for two days. */
const TOKEN_TTL_SECONDS = 48 * 60 * 60;

/** E-mail verification: a single-use random token, stored hashed, mailed as a link. */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger('EmailVerification');

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly uow: UnitOfWork,
    private readonly tokens: EmailVerificationRepository,
    private readonly accounts: AccountRepository,
    private readonly mail: MailService,
  ) {}

  /** Stores a token (inside the caller's transaction) and returns the mail to send after commit. */
  async issue(accountId: string, email: string): Promise<() => Promise<void>> {
    const token = newToken();
    await this.tokens.insert(accountId, hashToken(token), TOKEN_TTL_SECONDS);
    const link = `${this.config.publicOrigin}/auth/verify-email?token=${token}`;
    return async () => {
      try {
        await this.mail.send({ to: email, ...verificationMail(link) });
      } catch (error) {
        // The account exists either way; a failed mail is logged, not shown as a failed sign-up.
        this.logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'Could not send the verification mail');
      }
    };
  }

  /** One batch of the retention purge: tokens used, or expired by `now`. */
  purgeBatch(now: Date, limit: number): Promise<number> {
    return this.tokens.purgeBatch(now, limit);
  }

  /**
   * Verifies the token's account, inside the caller's transaction (the use case opens it:
   * AccountsService.verifyWithToken); an unknown, used or expired token is 400 INVALID_REQUEST.
   */
  async verify(token: string): Promise<string> {
    this.uow.requireTransaction();
    if (!TOKEN_PATTERN.test(token)) throw new InvalidVerificationTokenError();
    const accountId = await this.tokens.use(hashToken(token));
    if (!accountId) throw new InvalidVerificationTokenError();
    await this.accounts.markVerified(accountId);
    return accountId;
  }
}
