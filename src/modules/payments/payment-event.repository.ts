import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import type { PaymentEvent, PaymentEventKind, PaymentProviderName } from './payment-provider';

export type PaymentEventOutcome = 'applied' | 'deferred' | 'ignored' | 'unknown_purchase';

/** Every verified provider event, once per (provider, event id). */
@Injectable()
export class PaymentEventRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Records the event; false when it was already recorded (a duplicate delivery, applied at most
   * once). A concurrent delivery of the same id waits here for the first one's transaction, then
   * finds its row.
   */
  async claim(provider: PaymentProviderName, event: PaymentEvent): Promise<boolean> {
    this.uow.requireTransaction();
    const rows = await this.uow.query(
      `INSERT INTO payment_events (provider, event_id, type, kind, purchase_ref, payment_ref)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1 AS claimed`,
      [provider, event.id, event.type.slice(0, 255), event.kind, event.purchaseRef, event.paymentRef],
    );
    return rows.length === 1;
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
   * Refunds and disputes kept for a purchase that was not paid when they came: those recorded
   * against it, and those that named its provider payment before it was known.
   */
  async takeKept(provider: PaymentProviderName, purchaseId: string, paymentRef: string | null): Promise<PaymentEventKind[]> {
    this.uow.requireTransaction();
    const rows = await this.uow.query<{ kind: PaymentEventKind }>(
      `UPDATE payment_events SET outcome = 'applied', purchase_id = $2
        WHERE kind IN ('refund', 'dispute')
          AND ((purchase_id = $2 AND outcome = 'deferred')
            OR ($3::text IS NOT NULL AND provider = $1 AND purchase_id IS NULL AND payment_ref = $3 AND outcome = 'unknown_purchase'))
       RETURNING kind`,
      [provider, purchaseId, paymentRef],
    );
    return rows.map((r) => r.kind);
  }
}
