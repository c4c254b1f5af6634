import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { AUDIT_ACTIONS, AuditRecord } from './audit.rules';

/** The append-only audit log: rows are inserted, never changed (a trigger refuses it). */
@Injectable()
export class AuditRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async append(record: AuditRecord): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query(
      `INSERT INTO audit_log (actor_id, action, target_type, target_id, reason, details, request_id)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
      [
        record.actorId,
        record.action,
        AUDIT_ACTIONS[record.action],
        record.targetId,
        record.reason ?? null,
        JSON.stringify(record.details ?? {}),
        record.requestId,
      ],
    );
  }
}
