import type { AuditAction, AuditTargetType } from '../../registry/declarations';

/**
 * What the audit log records (CONTRACT §18): each action with the kind of thing it acts on. The
 * module that records an action declares it (`auditActions` in its `<module>.declarations.ts`).
 */
export type { AuditAction, AuditTargetType };

/** One audited action: who did what to which thing, why, and in which request. */
export interface AuditRecord {
  actorId: string;
  action: AuditAction;
  targetId: string;
  reason?: string | null;
  /** What else the entry needs to be read later (coins, the version's game...); never a secret. */
  details?: Record<string, unknown>;
  /** The `X-Request-Id` of the answer. */
  requestId: string | null;
}

/** Who acts, and in which request: what an audited use case takes from its controller. */
export interface AuditActor {
  /** The acting account's user id. */
  actorId: string;
  /** The `X-Request-Id` of the answer. */
  requestId: string | null;
}

/** An entry as `GET /api/admin/audit` lists it. */
export interface AuditEntry {
  id: string;
  at: Date;
  actorId: string;
  /** Null once the actor erased their account (CONTRACT §20). */
  actorEmail: string | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  reason: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
}
