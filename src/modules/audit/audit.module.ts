import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogEntry } from './audit-log-entry.entity';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit log of admin and developer actions (CONTRACT §18). Modules that act import it. */
@Module({ imports: [TypeOrmModule.forFeature([AuditLogEntry])], providers: [AuditRepository, AuditService], exports: [AuditService] })
export class AuditModule {}
