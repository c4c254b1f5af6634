import { Injectable } from '@nestjs/common';
import { AuditRepository } from './audit.repository';
import type { AuditRecord } from './audit.rules';

export type { AuditAction, AuditRecord } from './audit.rules';

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
}
