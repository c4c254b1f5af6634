import { Module } from '@nestjs/common';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit log of admin and developer actions (CONTRACT §18). Modules that act import it. */
@Module({ providers: [AuditRepository, AuditService], exports: [AuditService] })
export class AuditModule {}
