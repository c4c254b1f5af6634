/** The audit module's public entry (the audit log of admin and developer actions): other modules import only what is here (docs/architecture.md). */
export { AuditModule } from './audit.module';
export { AuditService } from './audit.service';
export type { AuditActor, AuditEntry } from './audit.service';
export { Actor } from './audit-actor.decorator';
