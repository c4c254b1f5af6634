import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../../errors/app-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { millsToUsd } from '../wallet';
import { PayoutFields, payoutView, PAYOUT_COLUMNS, PayoutView } from './payout.view';
import { isAfterMonth, MONTH_PATTERN, monthOf, StatementLine, statementMonths } from './statement.rules';

export interface Statement {
  month: string;
  currency: 'USD';
  games: (StatementLine & { gameId: string; slug: string })[];
  total: StatementLine;
  payouts: PayoutView[];
}

interface StatementRow {
  gameId: string;
  slug: string;
  insertions: string;
  coins: string;
  grossMills: string;
  earnedMills: string;
  voidedMills: string;
}

/** The month's bounds in UTC, from `$2` (`YYYY-MM`): [first day 00:00, first day of the next month). */
const MONTH_START = `(($2::text || '-01')::date::timestamp AT TIME ZONE 'UTC')`;
const MONTH_END = `((($2::text || '-01')::date + interval '1 month')::timestamp AT TIME ZONE 'UTC')`;

/**
 * A developer's monthly statement (CONTRACT §22), a read model over the wallet's per-insertion
 * records and the payouts: earnings count in the month of their insertion, voids in the month of
 * the void, payouts in the month they were made. Rows are only ever added to those tables, and
 * each counts in the month of its own time, so a closed month never changes.
 */
@Injectable()
export class StatementsService {
  constructor(private readonly uow: UnitOfWork) {}

  async statement(developerId: string, month: string, now = new Date()): Promise<Statement> {
    if (isAfterMonth(month, monthOf(now))) throw new InvalidRequestError(`Month: ${month} has not begun yet; choose this month or an earlier one.`);
    return this.uow.run(async () => {
      // One snapshot for the games and the payouts.
      await this.uow.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const rows = await this.uow.query<StatementRow>(
        `SELECT g.id AS "gameId", g.slug,
                COALESCE(e.insertions, 0)::text AS insertions, COALESCE(e.coins, 0)::text AS coins,
                COALESCE(e.gross_mills, 0)::text AS "grossMills", COALESCE(e.earned_mills, 0)::text AS "earnedMills",
                COALESCE(v.earned_mills, 0)::text AS "voidedMills"
           FROM games g
           LEFT JOIN (
             SELECT game_id, count(*) AS insertions, sum(coins) AS coins, sum(gross_mills) AS gross_mills, sum(earned_mills) AS earned_mills
               FROM developer_earnings
              WHERE developer_id = $1 AND created_at >= ${MONTH_START} AND created_at < ${MONTH_END}
              GROUP BY game_id
           ) e ON e.game_id = g.id
           LEFT JOIN (
             SELECT game_id, sum(earned_mills) AS earned_mills
               FROM insertion_voids
              WHERE developer_id = $1 AND voided_at >= ${MONTH_START} AND voided_at < ${MONTH_END}
              GROUP BY game_id
           ) v ON v.game_id = g.id
          WHERE g.developer_id = $1
          ORDER BY g.created_at, g.id`,
        [developerId, month],
      );
      const payouts = await this.payoutsMadeIn(developerId, month);
      let insertions = 0;
      let coins = 0;
      let gross = 0n;
      let earned = 0n;
      let voided = 0n;
      const games = rows.map((row) => {
        insertions += Number(row.insertions);
        coins += Number(row.coins);
        gross += BigInt(row.grossMills);
        earned += BigInt(row.earnedMills);
        voided += BigInt(row.voidedMills);
        return { gameId: row.gameId, slug: row.slug, ...line(Number(row.insertions), Number(row.coins), BigInt(row.grossMills), BigInt(row.earnedMills), BigInt(row.voidedMills)) };
      });
      return { month, currency: 'USD' as const, games, total: line(insertions, coins, gross, earned, voided), payouts };
    });
  }

  /**
   * What `/developer/payouts` shows of the statements: the months to choose from (since the developer
   * existed, newest first) and the chosen one's statement (`month` from the page's address: this
   * month when it is missing, not a month, or after this one).
   */
  async page(developerId: string, month: unknown, now = new Date()): Promise<{ months: string[]; statement: Statement }> {
    const rows = await this.uow.query<{ created_at: Date }>('SELECT created_at FROM developers WHERE id = $1', [developerId]);
    const months = statementMonths(rows[0]?.created_at ?? now, now);
    const chosen = typeof month === 'string' && MONTH_PATTERN.test(month) && !isAfterMonth(month, monthOf(now)) ? month : monthOf(now);
    return { months: months.includes(chosen) ? months : [...months, chosen].sort().reverse(), statement: await this.statement(developerId, chosen, now) };
  }

  /** The developer's payouts made in the month, newest first. */
  private async payoutsMadeIn(developerId: string, month: string): Promise<PayoutView[]> {
    const rows = await this.uow.query<PayoutFields>(
      `SELECT ${PAYOUT_COLUMNS} FROM payouts
        WHERE developer_id = $1 AND created_at >= ${MONTH_START} AND created_at < ${MONTH_END}
        ORDER BY created_at DESC, id DESC`,
      [developerId, month],
    );
    return rows.map(payoutView);
  }
}

function line(insertions: number, coins: number, gross: bigint, earned: bigint, voided: bigint): StatementLine {
  return { insertions, coins, grossUsd: millsToUsd(gross), earnedUsd: millsToUsd(earned), voidedUsd: millsToUsd(voided), netUsd: millsToUsd(earned - voided) };
}
