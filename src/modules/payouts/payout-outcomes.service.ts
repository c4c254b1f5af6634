import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { AuditService } from '../audit';
import type { AuditActor } from '../audit';
import { appendToDeveloperLedger, millsToUsd } from '../wallet';
import { PayoutFinalError, PayoutNotFoundError } from './payouts.errors';
import { PayoutRow, PayoutsRepository } from './payouts.repository';
import { StripeTransfers } from './stripe-transfers';

/**
 * How a pending payout ends (CONTRACT §22): paid (an admin's reference, or the Stripe transfer id)
 * or failed (its amount written back to the developer's ledger as `payout_reversal`, in the same
 * transaction). Each locks the payout's row first, so an admin and a Stripe answer never both
 * decide; paid and failed are final (a trigger refuses any change after).
 */
@Injectable()
export class PayoutOutcomesService {
  private readonly logger = new Logger('Payouts');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly payouts: PayoutsRepository,
    private readonly audit: AuditService,
    private readonly stripe: StripeTransfers,
  ) {}

  /** An admin marks a payout paid. Paid already: unchanged (no audit entry). Failed: 409. */
  markPaid(actor: AuditActor, payoutId: string, reference: string): Promise<PayoutRow> {
    return this.uow.run(async () => {
      const payout = await this.locked(payoutId);
      if (payout.status === 'paid') return payout;
      if (payout.status === 'failed') throw new PayoutFinalError('failed');
      await this.payouts.markPaid(payout.id, reference);
      await this.audit.record({
        ...actor,
        action: 'payout.mark_paid',
        targetId: payout.id,
        details: { reference, developerId: payout.developerId, amountUsd: millsToUsd(payout.amountMills), runId: payout.runId },
      });
      return (await this.payouts.find(payout.id))!;
    });
  }

  /** An admin marks a payout failed: its amount is back in the developer's balance. Failed already: unchanged. Paid: 409. */
  fail(actor: AuditActor, payoutId: string, reason: string): Promise<PayoutRow> {
    return this.uow.run(async () => {
      const payout = await this.locked(payoutId);
      if (payout.status === 'failed') return payout;
      if (payout.status === 'paid') throw new PayoutFinalError('paid');
      const { entryId } = await this.writeBack(payout, reason);
      await this.audit.record({
        ...actor,
        action: 'payout.fail',
        targetId: payout.id,
        reason,
        details: { developerId: payout.developerId, amountUsd: millsToUsd(payout.amountMills), runId: payout.runId, reversalEntryId: entryId },
      });
      return (await this.payouts.find(payout.id))!;
    });
  }

  /**
   * Makes a Stripe payout's transfer (after the payout's transaction committed) and records what
   * Stripe answered: sent → paid with the transfer id; refused → failed and written back; unknown →
   * still pending (the next run asks again). `retry`: a transfer asked before, looked up first.
   */
  async transfer(payout: PayoutRow, options: { retry: boolean } = { retry: false }): Promise<void> {
    if (payout.methodKind !== 'stripe' || payout.methodAccountId === null || payout.status !== 'pending') return;
    const outcome = await this.stripe.transfer({ payoutId: payout.id, amountMills: payout.amountMills, accountId: payout.methodAccountId }, { lookUpFirst: options.retry });
    if (outcome.kind === 'unknown') return;
    await this.uow.run(async () => {
      const now = await this.payouts.lock(payout.id);
      if (now?.status !== 'pending') {
        // An admin decided meanwhile. A transfer made for a payout an admin failed was paid twice over: say so loudly.
        if (outcome.kind === 'sent' && now?.status === 'failed') {
          this.logger.error({ payoutId: payout.id, transferId: outcome.transferId }, 'Stripe made the transfer of a payout an admin marked failed: reverse the transfer in Stripe');
        }
        return;
      }
      if (outcome.kind === 'sent') await this.payouts.markPaid(payout.id, outcome.transferId);
      else await this.writeBack(now, outcome.reason);
    });
  }

  private async locked(payoutId: string): Promise<PayoutRow> {
    const payout = isUuid(payoutId) ? await this.payouts.lock(payoutId) : undefined;
    if (!payout) throw new PayoutNotFoundError();
    return payout;
  }

  /** Failed, and its amount back on the developer's ledger (every shard locked by the append; the payout's row is already locked). */
  private async writeBack(payout: PayoutRow, reason: string): Promise<{ entryId: string }> {
    await this.payouts.markFailed(payout.id, reason);
    return appendToDeveloperLedger(this.uow, { developerId: payout.developerId, kind: 'payout_reversal', amountMills: payout.amountMills, payoutId: payout.id });
  }
}
