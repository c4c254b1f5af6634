import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { AuditService } from '../audit';
import { IdempotencyService, IdempotentResult } from '../idempotency';
import { ScoreModerationService } from '../scoring';
import { WalletService } from '../wallet';
import { WebhookOutbox } from '../webhooks';

export interface VoidAnswer {
  insertionId: string;
  voidedAt: Date;
  entryId: string;
  balance: number;
  replayed: boolean;
}

/** insertion.voided's play session and player ref, read with the event. */
const INSERTION_SESSION = `(SELECT jsonb_build_object('sessionId', ps.id, 'playerRef', ps.player_ref)
  FROM insertions i JOIN play_sessions ps ON ps.id = i.play_session_id WHERE i.id = {0}::uuid)`;

/**
 * An admin voids a paid insertion (CONTRACT §19), in one transaction: the key (§7), the insertion
 * locked (a concurrent void waits, then finds this one), its coins back to the player (ledger kind
 * void), its earning off the developer, its score off every board, the audit entry. Voiding a
 * voided insertion, with any key, answers the first void with `replayed: true` and changes nothing.
 */
@Injectable()
export class VoidInsertionService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly idempotency: IdempotencyService,
    private readonly wallets: WalletService,
    private readonly scores: ScoreModerationService,
    private readonly audit: AuditService,
    private readonly webhooks: WebhookOutbox,
  ) {}

  async void(actorId: string, insertionId: string, body: { reason: string; idempotencyKey: string }, requestId: string | null): Promise<IdempotentResult<VoidAnswer>> {
    const request = { caller: `account:${actorId}` as const, key: body.idempotencyKey, fingerprint: this.idempotency.fingerprint('insertion-void', insertionId, body) };
    return this.uow.run(() =>
      this.idempotency.execute<VoidAnswer>(request, 200, async () => {
        const insertion = await this.wallets.lockInsertionForVoid(insertionId);
        if (!insertion) throw new NotFoundError('No such insertion (test-mode insertions are never stored).');
        if (insertion.voided) return { insertionId: insertion.insertionId, ...insertion.voided, replayed: true };
        const { entryId, balance, voidedAt } = await this.wallets.voidInsertion(insertion, body.reason, actorId);
        // CONTRACT §21 insertion.voided (its score's score.removed follows from the removal).
        await this.webhooks.record({
          developerId: insertion.developerId,
          type: 'insertion.voided',
          data: { insertionId: insertion.insertionId, gameId: insertion.gameId, coins: insertion.coins, voidedAt: voidedAt.toISOString() },
          occurredAt: voidedAt,
          enrich: { sql: INSERTION_SESSION, values: [insertion.insertionId] },
        });
        const score = await this.scores.removeScoreOfInsertion(insertion.insertionId);
        await this.audit.record({
          actorId,
          action: 'insertion.void',
          targetId: insertion.insertionId,
          reason: body.reason,
          details: { coins: insertion.coins, gameId: insertion.gameId, developerId: insertion.developerId, playerId: insertion.playerId, entryId, scoreId: score?.scoreId ?? null },
          requestId,
        });
        return { insertionId: insertion.insertionId, voidedAt, entryId, balance, replayed: false };
      }),
    );
  }
}
