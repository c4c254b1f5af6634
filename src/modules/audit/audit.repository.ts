import { Inject, Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { ComposedDeclarations, DECLARATIONS } from '../../registry/compose';
import type { AuditEntry, AuditRecord } from './audit.rules';

const ENTRY_COLUMNS = `l.id::text AS id, l.at, l.actor_id AS "actorId", a.email AS "actorEmail", l.action, l.target_type AS "targetType",
  l.target_id AS "targetId", l.reason, l.details, l.request_id AS "requestId"`;

/** The append-only audit log: rows are inserted, never changed (a trigger refuses it). */
@Injectable()
export class AuditRepository {
  constructor(
    private readonly uow: UnitOfWork,
    @Inject(DECLARATIONS) private readonly declarations: ComposedDeclarations,
  ) {}

  async append(record: AuditRecord): Promise<void> {
    this.uow.requireTransaction();
    const targetType = this.declarations.auditActions.get(record.action);
    // The types allow only declared actions; this catches a declaring module missing from the app.
    if (targetType === undefined) throw new Error(`The audit action '${record.action}' is not declared by any module of the app.`);
    await this.uow.query(
      `INSERT INTO audit_log (actor_id, action, target_type, target_id, reason, details, request_id)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
      [
        record.actorId,
        record.action,
        targetType,
        record.targetId,
        record.reason ?? null,
        JSON.stringify(record.details ?? {}),
        record.requestId,
      ],
    );
  }

  /**
   * Newest first, `beforeId` excluded. One statement per combination of filters, so each is planned
   * for its index: audit_log_actor_idx, audit_log_target_idx, or the primary key backwards.
   */
  list(filter: { actorId?: string; targetId?: string; beforeId?: string }, limit: number): Promise<AuditEntry[]> {
    const conditions: string[] = [];
    const values: unknown[] = [limit];
    const add = (sql: string, value: unknown) => {
      values.push(value);
      conditions.push(sql.replace('?', `$${values.length}`));
    };
    if (filter.actorId !== undefined) add('l.actor_id = ?::uuid', filter.actorId);
    if (filter.targetId !== undefined) add('l.target_id = ?', filter.targetId);
    if (filter.beforeId !== undefined) add('l.id < ?::bigint', filter.beforeId);
    return this.uow.query<AuditEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM audit_log l JOIN accounts a ON a.id = l.actor_id
        ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
        ORDER BY l.id DESC LIMIT $1`,
      values,
    );
  }
}
