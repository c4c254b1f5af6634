/** The mail module's public entry (every outgoing mail, plain text and HTML): other modules import only what is here (docs/architecture.md). */
export { MailModule } from './mail.module';
export { MailService } from './mail.service';
export type { OutgoingMail } from './mail.service';
export { emailChangeConfirmMail, emailChangeNoticeMail, passwordResetMail, twoFactorOffMail, twoFactorOnMail, verificationMail, webhookDisabledMail } from './mail-templates';
export type { MailContent } from './mail-templates';
