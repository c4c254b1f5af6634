import { Module } from '@nestjs/common';
import { MailService } from './mail.service';

/** Outgoing mail (CONTRACT §20 "Mail"): every mail the service sends goes through MailService. */
@Module({ providers: [MailService], exports: [MailService] })
export class MailModule {}
