import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { CONFIG, Config } from '../../config';

/** A mail to send: a template's content (mail-templates.ts) and its recipient. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Outgoing mail through MAIL_TRANSPORT: `console` writes the mail's text (its link included)
 * to the log for local use; an smtp:// or smtps:// URL sends it, plain text and HTML
 * alternatives, with nodemailer. With
 * NODE_ENV=production the console transport logs only who and what: a mail's body holds a
 * link (verification, password reset) that acts as the address's owner (issue 14).
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transporter: Transporter | undefined;
  private readonly from: string;
  private readonly logBodies: boolean;

  constructor(@Inject(CONFIG) config: Config) {
    this.logBodies = config.nodeEnv !== 'production';
    this.transporter =
      config.mailTransport === 'console'
        ? undefined
        : nodemailer.createTransport({
            url: config.mailTransport,
            // Give up on an unresponsive server in seconds, not nodemailer's default minutes.
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000,
          } as SMTPTransport.Options);
    this.from = `Arcade <no-reply@${new URL(config.publicOrigin).hostname}>`;
  }

  async send(mail: OutgoingMail): Promise<void> {
    if (!this.transporter) {
      if (this.logBodies) this.logger.log({ to: mail.to, subject: mail.subject, body: mail.text }, `Mail to ${mail.to}: ${mail.subject}`);
      else this.logger.warn({ to: mail.to, subject: mail.subject }, `Mail to ${mail.to} not sent (MAIL_TRANSPORT=console); its body is not logged in production`);
      return;
    }
    await this.transporter.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  onModuleDestroy(): void {
    this.transporter?.close();
  }
}
