import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AccountContext } from '../../http/account-auth';
import { emailChangeConfirmMail, emailChangeNoticeMail, MailService, OutgoingMail } from '../mail';
import { EVERYONE, RateLimiter } from '../rate-limits';
import { AccountRepository } from './account.repository';
import { AccountSettingsService } from './account-settings.service';
import { AccountsService, UserView } from './accounts.service';
import { normalizeEmail } from './email-address';
import { EmailChangeRepository, PendingEmailChange } from './email-change.repository';
import { EmailTakenError, EmailUnchangedError, InvalidEmailChangeTokenError } from './identity.errors';
import { hashToken, newToken, TOKEN_PATTERN } from './random-token';

/** Confirmation links stay valid for 24 hours (CONTRACT §20). */
const TOKEN_TTL_SECONDS = 24 * 60 * 60;

/**
 * Changing the e-mail address (CONTRACT §20): the signed-in person asks with the current password;
 * a single-use link goes to the new address and a notice (no link) to the current one, which stays
 * the login until the link is followed. Following it makes the new address the account's, verified.
 */
@Injectable()
export class EmailChangeService {
  private readonly logger = new Logger('EmailChange');

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly uow: UnitOfWork,
    private readonly tokens: EmailChangeRepository,
    private readonly accountRows: AccountRepository,
    private readonly accounts: AccountsService,
    private readonly settings: AccountSettingsService,
    private readonly limits: RateLimiter,
    private readonly mail: MailService,
  ) {}

  /**
   * The password first (403, counted as a failed login; CONTRACT §20: before any 409), then the
   * address (409 when an account has it, this one included), then the mail limits of verification
   * mails (per account, per client address, for everyone): beyond them 429 and nothing changes, no
   * mail and the earlier link still valid. A request counts once against each, for its two mails.
   */
  async request(auth: AccountContext, rawEmail: string, currentPassword: string, clientAddress: string): Promise<{ pendingEmail: string }> {
    const email = normalizeEmail(rawEmail);
    await this.settings.proveCurrentPassword(auth, currentPassword);
    if (email === auth.email) throw new EmailUnchangedError();
    if (await this.accountRows.findByEmail(email)) throw new EmailTakenError();
    await this.limits.consume(
      { throttler: 'mail-per-account', tracker: auth.accountId },
      { throttler: 'mail-per-address', tracker: clientAddress },
      { throttler: 'mail-global', tracker: EVERYONE },
    );
    const token = newToken();
    await this.uow.run(async () => {
      await this.tokens.issue(auth.accountId, email, hashToken(token), TOKEN_TTL_SECONDS);
      // After commit and after the answer: a slow mail server must not hold the request up.
      this.uow.afterCommit(() => {
        const link = `${this.config.publicOrigin}/auth/confirm-email?token=${token}`;
        this.send({ to: email, ...emailChangeConfirmMail(link) });
        this.send({ to: auth.email, ...emailChangeNoticeMail(email) });
      });
    });
    return { pendingEmail: email };
  }

  /**
   * Follows a link: the new address becomes the account's, verified; the link is used up. Unknown,
   * used or expired: 400 INVALID_TOKEN. Taken by another account meanwhile: 409 EMAIL_TAKEN (the
   * unique index decides), the link left unused. Nobody is signed in or out here.
   */
  async confirm(token: string): Promise<UserView> {
    if (!TOKEN_PATTERN.test(token)) throw new InvalidEmailChangeTokenError();
    return this.uow.run(async () => {
      const change = await this.tokens.use(hashToken(token));
      if (!change) throw new InvalidEmailChangeTokenError();
      await this.tokens.setEmail(change.accountId, change.newEmail);
      return this.accounts.user(change.accountId);
    });
  }

  /** The account's change waiting for its link, for the settings page. */
  pending(accountId: string): Promise<PendingEmailChange | undefined> {
    return this.tokens.pending(accountId);
  }

  /** One batch of the retention purge: links used, or expired by `now`. */
  purgeBatch(now: Date, limit: number): Promise<number> {
    return this.tokens.purgeBatch(now, limit);
  }

  private send(mail: OutgoingMail): void {
    setImmediate(() => {
      this.mail.send(mail).catch((error: unknown) => {
        this.logger.error({ reason: error instanceof Error ? error.message : String(error), subject: mail.subject }, 'Could not send an e-mail-change mail');
      });
    });
  }
}
