import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import type { MoneyMismatch } from './payment-money';
import type { PaymentEvent, PaymentProviderName } from './payment-provider';

export type PaymentEventOutcome = 'applied' | 'deferred' | 'ignored' | 'unknown_purchase' | MoneyMismatch;

/** What the claim found: a new event, the same event again, or its id again with another body. */
export type PaymentEventClaim = 'claimed' | 'duplicate' | 'conflict';

/** A refund, dispute or dispute outcome kept until its purchase can take it; `unresolved` when it named no known purchase. */
export type KeptPaymentEvent = PaymentEvent & { unresolved: boolean };

/** The kinds kept for later: refunds and disputes need the payment, outcomes their dispute. */
const KEPT_KINDS = ['refund', 'refund_reversal', 'dispute', 'dispute_won', 'dispute_lost'];

/** Every verified provider event, once per (provider, event id), with what the provider said in it. */
@Injectable()
export class PaymentEventRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Records the event. Its id already recorded: a duplicate delivery (applied at most once), or,
   * with another body, a conflict, kept in payment_event_conflicts (CONTRACT §19.1). A concurrent
   * delivery of the same id waits here for the first one's transaction, then finds its row.
   */
  async claim(provider: PaymentProviderName, event: PaymentEvent): Promise<PaymentEventClaim> {
    this.uow.requireTransaction();
    const rows = await this.uow.query(
      `INSERT INTO payment_events (provider, event_id, type, kind, purchase_ref, payment_ref, checkout_ref, object_ref,
                                   amount_cents, refunded_total_cents, currency, livemode, body_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING RETURNING 1 AS claimed`,
      [
        provider, event.id, event.type.slice(0, 255), event.kind, event.purchaseRef, event.paymentRef, event.checkoutRef, event.objectRef,
        event.amountCents, event.refundedTotalCents, event.currency, event.livemode, event.bodyHash,
      ],
    );
    if (rows.length === 1) return 'claimed';
    const first = await this.uow.one<{ bodyHash: string | null }>('SELECT body_hash AS "bodyHash" FROM payment_events WHERE provider = $1 AND event_id = $2', [provider, event.id]);
    // Recorded before bodies were hashed: nothing to tell them apart by.
    if (!first?.bodyHash || first.bodyHash === event.bodyHash) return 'duplicate';
    await this.uow.query('INSERT INTO payment_event_conflicts (provider, event_id, body_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [provider, event.id, event.bodyHash]);
    return 'conflict';
  }

  /**
   * Serialises the events that name one provider payment: a refund that finds no purchase yet and
   * the payment that would tell it which purchase it is never pass each other unseen.
   */
  async lockPaymentRef(provider: PaymentProviderName, paymentRef: string): Promise<void> {
    this.uow.requireTransaction();
    await this.uow.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`payment:${provider}:${paymentRef}`]);
  }

  async settle(provider: PaymentProviderName, eventId: string, outcome: PaymentEventOutcome, purchaseId: string | null): Promise<void> {
    await this.uow.query('UPDATE payment_events SET outcome = $3, purchase_id = $4 WHERE provider = $1 AND event_id = $2', [provider, eventId, outcome, purchaseId]);
  }

  /**
   * Events kept for a purchase that could not take them when they came: those recorded against it
   * as deferred, and those that named its provider payment before it was known. Refunds first,
   * then the dispute, then its outcome; each in arrival order.
   */
  async kept(provider: PaymentProviderName, purchaseId: string, paymentRef: string | null): Promise<KeptPaymentEvent[]> {
    this.uow.requireTransaction();
    return this.uow.query<KeptPaymentEvent>(
      `SELECT event_id AS id, type, kind, purchase_ref AS "purchaseRef", checkout_ref AS "checkoutRef", payment_ref AS "paymentRef",
              object_ref AS "objectRef", amount_cents::float8 AS "amountCents", refunded_total_cents::float8 AS "refundedTotalCents",
              currency, livemode, COALESCE(body_hash, '') AS "bodyHash", purchase_id IS NULL AS unresolved
         FROM payment_events
        WHERE provider = $1 AND kind = ANY($4::text[])
          AND ((purchase_id = $2 AND outcome = 'deferred')
            OR ($3::text IS NOT NULL AND purchase_id IS NULL AND payment_ref = $3 AND outcome = 'unknown_purchase'))
        ORDER BY CASE kind WHEN 'dispute' THEN 1 WHEN 'dispute_won' THEN 2 WHEN 'dispute_lost' THEN 2 ELSE 0 END, received_at, event_id`,
      [provider, purchaseId, paymentRef, KEPT_KINDS],
    );
  }

  /** Whether another event already gave back this refund (Stripe tells of one failure under several types). */
  async refundGivenBack(provider: PaymentProviderName, objectRef: string): Promise<boolean> {
    const row = await this.uow.one(
      "SELECT 1 FROM payment_events WHERE provider = $1 AND object_ref = $2 AND kind = 'refund_reversal' AND outcome = 'applied'",
      [provider, objectRef],
    );
    return row !== undefined;
  }
}
