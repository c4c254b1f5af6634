import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { Wallet } from './wallet.entity';

export interface LedgerEntryView {
  id: string;
  delta: number;
  balanceAfter: number;
  kind: 'credit' | 'debit';
  reason: string | null;
  insertionId: string | null;
  gameSlug: string | null;
  createdAt: Date;
}

export interface GameEarningsRow {
  gameId: string;
  slug: string;
  title: string;
  insertions: string;
  coins: string;
  grossMills: string;
  earnedMills: string;
}

export interface DailyEarningsRow {
  /** YYYY-MM-DD, a UTC calendar day. */
  date: string;
  insertions: string;
  coins: string;
  grossMills: string;
  earnedMills: string;
}

export interface InsertionPayment {
  walletId: string;
  coins: number;
  insertionId: string;
  playSessionId: string;
  gameId: string;
  playerId: string;
  developerId: string;
  grossMills: number;
  earnedMills: number;
}

/**
 * The append-only ledger and each wallet's head (the latest entry's seq and running balance, kept
 * on the wallet row). Every append updates the head and inserts the entry in one statement: the
 * row update serialises appends to one wallet until the transaction ends and reads the balance as
 * the last committed append left it, so `seq` never collides and no balance goes below zero.
 */
@Injectable()
export class WalletRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get wallets() {
    return this.uow.manager.getRepository(Wallet);
  }

  async open(playerId: string): Promise<string> {
    const wallet = this.wallets.create({ playerId });
    await this.wallets.insert(wallet);
    return wallet.id;
  }

  async walletIdOf(playerId: string): Promise<string | undefined> {
    return (await this.wallets.findOne({ select: { id: true }, where: { playerId } }))?.id;
  }

  async walletIdOfAccount(accountId: string): Promise<string | undefined> {
    if (!isUuid(accountId)) return undefined;
    const row = await this.uow.one<{ id: string }>(
      'SELECT w.id FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1',
      [accountId],
    );
    return row?.id;
  }

  async balance(walletId: string): Promise<number> {
    const row = await this.uow.one<{ balance: string }>('SELECT balance FROM wallets WHERE id = $1', [walletId]);
    return row ? Number(row.balance) : 0;
  }

  /** Appends a credit after the latest entry. */
  async appendCredit(walletId: string, coins: number, reason: string): Promise<{ entryId: string; balance: number }> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ id: string; balance_after: string }>(
      `WITH head AS (
         UPDATE wallets SET balance = balance + $2::integer, last_seq = last_seq + 1 WHERE id = $1
         RETURNING id, last_seq, balance
       )
       INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, reason)
       SELECT head.id, head.last_seq, $2::integer, head.balance, 'credit', $3::text FROM head
       RETURNING id::text AS id, balance_after`,
      [walletId, coins, reason],
    );
    if (!row) throw new Error(`Wallet ${walletId} does not exist.`);
    return { entryId: row.id, balance: Number(row.balance_after) };
  }

  /**
   * The money statement of insert-coin: when the wallet's balance covers the price, moves its head,
   * appends the debit, records the insertion and the developer's earning, and moves the play
   * session's lastSeenAt (CONTRACT §6) — all or nothing, one round trip that also locks the wallet.
   * Returns null when the balance does not cover it (nothing written, the wallet not locked).
   */
  async payForInsertion(p: InsertionPayment): Promise<{ balanceAfter: number; createdAt: Date } | null> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ balance_after: string | null; created_at: Date | null }>(
      `WITH head AS (
         UPDATE wallets SET balance = balance - $2::integer, last_seq = last_seq + 1
          WHERE id = $1 AND balance >= $2::integer
         RETURNING id, last_seq, balance
       ), debit AS (
         INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind)
         SELECT head.id, head.last_seq, -$2::integer, head.balance, 'debit' FROM head
         RETURNING id, balance_after
       ), insertion AS (
         INSERT INTO insertions (id, play_session_id, game_id, player_id, ledger_entry_id, coins)
         SELECT $3::uuid, $4::uuid, $5::uuid, $6::uuid, debit.id, $2::integer FROM debit
         RETURNING id, created_at
       ), earning AS (
         INSERT INTO developer_earnings (insertion_id, developer_id, game_id, coins, gross_mills, earned_mills)
         SELECT insertion.id, $7::uuid, $5::uuid, $2::integer, $8::bigint, $9::bigint FROM insertion
         RETURNING id
       ), touched AS (
         UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now())
          WHERE id = $4::uuid AND EXISTS (SELECT 1 FROM insertion)
         RETURNING id
       )
       SELECT (SELECT balance_after FROM debit) AS balance_after, (SELECT created_at FROM insertion) AS created_at`,
      [p.walletId, p.coins, p.insertionId, p.playSessionId, p.gameId, p.playerId, p.developerId, p.grossMills, p.earnedMills],
    );
    if (row!.balance_after === null || row!.created_at === null) return null;
    return { balanceAfter: Number(row!.balance_after), createdAt: row!.created_at };
  }

  /** Newest first; `beforeSeq` pages backwards. One more row than asked tells whether more exist. */
  entries(walletId: string, beforeSeq: number | null, limit: number): Promise<(LedgerEntryView & { seq: number })[]> {
    return this.uow.query(
      `SELECT le.id::text AS id, le.seq, le.delta, le.balance_after::float8 AS "balanceAfter", le.kind, le.reason,
              i.id AS "insertionId", g.slug AS "gameSlug", le.created_at AS "createdAt"
         FROM ledger_entries le
         LEFT JOIN insertions i ON i.ledger_entry_id = le.id
         LEFT JOIN games g ON g.id = i.game_id
        WHERE le.wallet_id = $1 AND ($2::integer IS NULL OR le.seq < $2)
        ORDER BY le.seq DESC
        LIMIT $3`,
      [walletId, beforeSeq, limit],
    );
  }

  async seqOfEntry(walletId: string, entryId: string): Promise<number | undefined> {
    const row = await this.uow.one<{ seq: number }>('SELECT seq FROM ledger_entries WHERE id = $1 AND wallet_id = $2', [entryId, walletId]);
    return row?.seq;
  }

  /**
   * Every game of the developer, zero rows included, with sums in exact integers (as strings);
   * `thisMonth`: only what was earned since the first of this month, 00:00 UTC.
   */
  earningsByGame(developerId: string, thisMonth = false): Promise<GameEarningsRow[]> {
    return this.uow.query<GameEarningsRow>(
      `SELECT g.id AS "gameId", g.slug, g.title,
              COALESCE(e.insertions, 0)::text AS insertions, COALESCE(e.coins, 0)::text AS coins,
              COALESCE(e.gross_mills, 0)::text AS "grossMills", COALESCE(e.earned_mills, 0)::text AS "earnedMills"
         FROM games g
         LEFT JOIN (
           SELECT game_id, count(*) AS insertions, sum(coins) AS coins, sum(gross_mills) AS gross_mills, sum(earned_mills) AS earned_mills
             FROM developer_earnings
            WHERE developer_id = $1 AND (NOT $2::boolean OR created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
            GROUP BY game_id
         ) e ON e.game_id = g.id
        WHERE g.developer_id = $1
        ORDER BY g.created_at, g.id`,
      [developerId, thisMonth],
    );
  }

  /** Whether the game exists and is the developer's. */
  async isDevelopersGame(developerId: string, gameId: string): Promise<boolean> {
    if (!isUuid(gameId)) return false;
    return (await this.uow.query('SELECT 1 FROM games WHERE id = $1 AND developer_id = $2', [gameId, developerId])).length > 0;
  }

  /**
   * One row per UTC calendar day of the last `days` days, oldest first, today last, zero-filled.
   * `movements` lists what changes a day's earnings: each paid insertion on the day it was paid
   * (test mode never reaches developer_earnings). A void (§19) joins it as a negative movement
   * on the day of the void.
   */
  dailyEarnings(developerId: string, days: number, gameId: string | null): Promise<DailyEarningsRow[]> {
    return this.uow.query<DailyEarningsRow>(
      `WITH bounds AS (
         SELECT (now() AT TIME ZONE 'UTC')::date AS today
       ), movements AS (
         SELECT e.created_at AS at, 1 AS insertions, e.coins, e.gross_mills, e.earned_mills
           FROM developer_earnings e, bounds
          WHERE e.developer_id = $1 AND ($3::uuid IS NULL OR e.game_id = $3)
            AND e.created_at >= (bounds.today - ($2::integer - 1))::timestamp AT TIME ZONE 'UTC'
       ), by_day AS (
         SELECT (at AT TIME ZONE 'UTC')::date AS day, sum(insertions) AS insertions, sum(coins) AS coins,
                sum(gross_mills) AS gross_mills, sum(earned_mills) AS earned_mills
           FROM movements GROUP BY 1
       )
       SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
              COALESCE(b.insertions, 0)::text AS insertions, COALESCE(b.coins, 0)::text AS coins,
              COALESCE(b.gross_mills, 0)::text AS "grossMills", COALESCE(b.earned_mills, 0)::text AS "earnedMills"
         FROM bounds, generate_series(bounds.today - ($2::integer - 1), bounds.today, interval '1 day') AS d(day)
         LEFT JOIN by_day b ON b.day = d.day::date
        ORDER BY d.day`,
      [developerId, days, gameId],
    );
  }
}
