import { Injectable } from '@nestjs/common';
import { isUuid } from '../../database/uuid';
import { decodeCursor, pageOf } from '../../http/keyset-cursor';
import { AuditRepository } from './audit.repository';
import type { AuditEntry, AuditRecord } from './audit.rules';

export type { AuditAction, AuditActor, AuditEntry, AuditRecord } from './audit.rules';

/**
 * Who did what (CONTRACT §18). `record` joins the caller's transaction, so an entry exists exactly
 * when the change it describes committed; a replay or a refused request records nothing.
 *
 *   await this.uow.run(async () => {
 *     const changed = await this.games.suspend(gameId);
 *     if (changed) await this.audit.record({ actorId, action: 'game.suspend', targetId: gameId, requestId });
 *   });
 */
@Injectable()
export class AuditService {
  constructor(private readonly log: AuditRepository) {}

  record(entry: AuditRecord): Promise<void> {
    return this.log.append(entry);
  }

  /** Newest first; `cursor` is the previous page's `nextCursor`. An actor id that is no account's finds nothing. */
  async list(filter: { actorId?: string; targetId?: string }, options: { limit: number; cursor?: string }): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor, ['digits'] as const)[0];
    if (filter.actorId !== undefined && !isUuid(filter.actorId)) return { entries: [], nextCursor: null };
    const { rows, nextCursor } = pageOf(await this.log.list({ ...filter, beforeId: before }, options.limit + 1), options.limit, (entry) => [entry.id]);
    return { entries: rows, nextCursor };
  }
}
