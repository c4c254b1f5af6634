import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../../errors/app-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { millsToUsd } from '../wallet';
import { BooksCheck, runBooksChecks } from './books.checks';
import { PERIOD_MESSAGES, periodOf } from './reconciliation.rules';

export interface Reconciliation {
  from: string;
  to: string;
  coins: { purchased: number; credited: number; spent: number; voidedBack: number; refundedBack: number; disputeWonBack: number; forfeited: number };
  usd: {
    purchasesPaid: string;
    refunded: string;
    disputed: string;
    unrecovered: string;
    grossSpent: string;
    developerEarned: string;
    developerVoided: string;
    paidOut: string;
    platformShare: string;
  };
  now: { walletBalances: number; developerBalancesUsd: string };
  checks: BooksCheck[];
}

type FlowRow = Record<
  | 'purchased' | 'credited' | 'spent' | 'voidedBack' | 'refundedBack' | 'disputeWonBack' | 'forfeited'
  | 'purchasesPaid' | 'refunded' | 'disputed' | 'unrecovered' | 'grossSpent' | 'developerEarned' | 'voidedGross' | 'developerVoided'
  | 'walletBalances' | 'developerBalances',
  string
>;

/** [from 00:00 UTC, the day after `to` 00:00 UTC). */
const START = `($1::date::timestamp AT TIME ZONE 'UTC')`;
const END = `(($2::date + 1)::timestamp AT TIME ZONE 'UTC')`;
const IN_PERIOD = (column: string) => `${column} >= ${START} AND ${column} < ${END}`;

/**
 * The period's flows (coins from the wallet ledger by the time of each entry; US dollars from the
 * purchases' prices, the provider's applied events, the developer records and the developer
 * ledger), the balances now, and the books' checks — all read in one snapshot.
 */
const FLOWS_SQL = `
  WITH coins AS (
    SELECT COALESCE(SUM(delta) FILTER (WHERE kind = 'purchase'), 0) AS purchased,
           COALESCE(SUM(delta) FILTER (WHERE kind = 'credit'), 0) AS credited,
           COALESCE(-SUM(delta) FILTER (WHERE kind = 'debit'), 0) AS spent,
           COALESCE(SUM(delta) FILTER (WHERE kind = 'void'), 0) AS voided_back,
           COALESCE(-SUM(delta) FILTER (WHERE kind IN ('refund', 'refund_reversal')), 0) AS refunded_back,
           COALESCE(SUM(delta) FILTER (WHERE kind = 'dispute_won'), 0) AS dispute_won_back,
           COALESCE(-SUM(delta) FILTER (WHERE kind = 'forfeit'), 0) AS forfeited
      FROM ledger_entries WHERE ${IN_PERIOD('created_at')}
  ), paid AS (
    SELECT COALESCE(SUM(p.price_mills), 0) AS mills
      FROM ledger_entries l JOIN purchases p ON p.id = l.purchase_id
     WHERE l.kind = 'purchase' AND ${IN_PERIOD('l.created_at')}
  ), events AS (
    SELECT COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'refund'), 0) * 10 AS refunded,
           COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'dispute'), 0) * 10 AS disputed
      FROM payment_events WHERE outcome = 'applied' AND ${IN_PERIOD('received_at')}
  ), unrecovered AS (
    SELECT COALESCE(SUM(p.unrecovered_coins), 0) * 250 AS mills
      FROM purchases p
     WHERE p.unrecovered_coins > 0
       AND (SELECT MAX(e.received_at) FROM payment_events e
             WHERE e.purchase_id = p.id AND e.outcome = 'applied' AND e.kind IN ('refund', 'dispute')) >= ${START}
       AND (SELECT MAX(e.received_at) FROM payment_events e
             WHERE e.purchase_id = p.id AND e.outcome = 'applied' AND e.kind IN ('refund', 'dispute')) < ${END}
  ), earned AS (
    SELECT COALESCE(SUM(gross_mills), 0) AS gross, COALESCE(SUM(earned_mills), 0) AS earned
      FROM developer_earnings WHERE ${IN_PERIOD('created_at')}
  ), voided AS (
    SELECT COALESCE(SUM(gross_mills), 0) AS gross, COALESCE(SUM(earned_mills), 0) AS earned
      FROM insertion_voids WHERE ${IN_PERIOD('voided_at')}
  )
  SELECT coins.purchased::text AS purchased, coins.credited::text AS credited, coins.spent::text AS spent,
         coins.voided_back::text AS "voidedBack", coins.refunded_back::text AS "refundedBack",
         coins.dispute_won_back::text AS "disputeWonBack", coins.forfeited::text AS forfeited,
         paid.mills::text AS "purchasesPaid", events.refunded::text AS refunded, events.disputed::text AS disputed,
         unrecovered.mills::text AS unrecovered,
         earned.gross::text AS "grossSpent", earned.earned::text AS "developerEarned",
         voided.gross::text AS "voidedGross", voided.earned::text AS "developerVoided",
         (SELECT COALESCE(SUM(balance), 0) FROM wallets)::text AS "walletBalances",
         (SELECT COALESCE(SUM(balance_mills), 0) FROM developer_balances)::text AS "developerBalances"
    FROM coins, paid, events, unrecovered, earned, voided`;

/** Money sent to developers in the period: payouts less the reversals of failed ones (developer ledger). */
const PAID_OUT_SQL = `
  SELECT COALESCE(-SUM(amount_mills), 0)::text AS mills
    FROM developer_ledger_entries WHERE kind IN ('payout', 'payout_reversal') AND ${IN_PERIOD('created_at')}`;

@Injectable()
export class ReconciliationService {
  constructor(private readonly uow: UnitOfWork) {}

  async reconcile(query: { from?: string; to?: string }, now = new Date()): Promise<Reconciliation> {
    const period = periodOf(query, now);
    if ('problem' in period) throw new InvalidRequestError(PERIOD_MESSAGES[period.problem]);
    return this.uow.run(async () => {
      await this.uow.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const [flows] = await this.uow.query<FlowRow>(FLOWS_SQL, [period.from, period.to]);
      const [paidOut] = await this.uow.query<{ mills: string }>(PAID_OUT_SQL, [period.from, period.to]);
      const checks = await runBooksChecks({ query: async (sql) => ({ rows: await this.uow.query(sql) }) });
      const f = flows!;
      const mills = (name: keyof FlowRow) => BigInt(f[name]);
      return {
        from: period.from,
        to: period.to,
        coins: {
          purchased: Number(f.purchased),
          credited: Number(f.credited),
          spent: Number(f.spent),
          voidedBack: Number(f.voidedBack),
          refundedBack: Number(f.refundedBack),
          disputeWonBack: Number(f.disputeWonBack),
          forfeited: Number(f.forfeited),
        },
        usd: {
          purchasesPaid: millsToUsd(mills('purchasesPaid')),
          refunded: millsToUsd(mills('refunded')),
          disputed: millsToUsd(mills('disputed')),
          unrecovered: millsToUsd(mills('unrecovered')),
          grossSpent: millsToUsd(mills('grossSpent')),
          developerEarned: millsToUsd(mills('developerEarned')),
          developerVoided: millsToUsd(mills('developerVoided')),
          paidOut: millsToUsd(paidOut!.mills),
          // The platform's 30% of what was spent, less its share of what was voided.
          platformShare: millsToUsd(mills('grossSpent') - mills('developerEarned') - (mills('voidedGross') - mills('developerVoided'))),
        },
        now: { walletBalances: Number(f.walletBalances), developerBalancesUsd: millsToUsd(mills('developerBalances')) },
        checks,
      };
    });
  }
}
