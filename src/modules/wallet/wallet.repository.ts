import { Injectable } from '@nestjs/common';
import { RidingWrite, riderValues, withRiders } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { appendToLedger, developerLedgerAppendSql, LedgerKind, ledgerAppendSql, ledgerAppendValues, PurchaseCreditKind } from './ledger-append';
import { Wallet } from './wallet.entity';

export type { LedgerKind, PurchaseCreditKind } from './ledger-append';

export interface LedgerEntryView {
  id: string;
  delta: number;
  balanceAfter: number;
  kind: LedgerKind;
  reason: string | null;
  insertionId: string | null;
  gameSlug: string | null;
  purchaseId: string | null;
  createdAt: Date;
}

/** Coins taken back from a wallet for a refunded or disputed purchase: never below a balance of 0. */
export interface TakeBack {
  /** Coins actually taken (0 when the wallet was empty: no entry then). */
  taken: number;
  entryId: string | null;
  balance: number;
}

export interface VoidableInsertion {
  insertionId: string;
  walletId: string;
  coins: number;
  playerId: string;
  gameId: string;
  developerId: string;
  /** Set when already voided: the first void's answer. */
  voided: { voidedAt: Date; entryId: string; balance: number } | null;
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

/** Insert-coin's debit: the one ledger append, only when the balance covers the price and the wallet is not frozen. */
const DEBIT = ledgerAppendSql('debit', { as: 'debit', onlyIfCovered: true });
// Insert-coin's own values follow the append's: $1 the wallet, $2 the coins, its own from $3.
if (DEBIT.valueCount !== 2) throw new Error(`PAY_FOR_INSERTION numbers its values from $3, after the debit's 2; the append now takes ${DEBIT.valueCount}.`);
/**
 * The earning's entry in the developer ledger (the one developer append), written only with its
 * insertion: $7 the developer, $9 the mills, $3 the insertion, $1 the wallet (its shard), $5 the game,
 * $2 the coins, $8 the gross. It is the developer's record of the insertion (developer_earnings is a view of these entries).
 */
const EARNING_APPEND = developerLedgerAppendSql('earning', {
  as: 'earning_entry', after: 'insertion',
  params: { developerId: '$7', amountMills: '$9', names: '$3', insertion: { walletId: '$1', gameId: '$5', coins: '$2', grossMills: '$8' } },
});
const PAY_FOR_INSERTION_HEAD = `${DEBIT.text}, insertion AS (
         INSERT INTO insertions (id, play_session_id, game_id, player_id, ledger_entry_id, coins)
         SELECT $3::uuid, $4::uuid, $5::uuid, $6::uuid, debit.id, $2::integer FROM debit
         RETURNING id, created_at
       ), ${EARNING_APPEND}, touched AS (
         UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now())
          WHERE id = $4::uuid AND EXISTS (SELECT 1 FROM insertion)
         RETURNING id
       )`;
/** A void: the insertion's coins back (the one ledger append, kind void) and the void row that takes its earning off the developer. */
const VOID_ENTRY_REASON = 'Coins returned: the play was voided';
const VOID_APPEND = ledgerAppendSql('void');
/** The void's own values, after the append's ($2, the coins, is the append's). */
const v = (n: number) => `$${VOID_APPEND.valueCount + n}` as const;
const APPEND_VOID = `${VOID_APPEND.text}, voided AS (
         INSERT INTO insertion_voids (insertion_id, ledger_entry_id, developer_id, game_id, coins, gross_mills, earned_mills, reason, voided_by)
         SELECT ${v(1)}::uuid, entry.id, ${v(2)}::uuid, ${v(3)}::uuid, $2::integer, ${v(4)}::bigint, ${v(5)}::bigint, ${v(6)}::text, ${v(7)}::uuid FROM entry
         RETURNING voided_at
       ), ${developerLedgerAppendSql('void', { as: 'void_entry', after: 'voided', params: { developerId: v(2), amountMills: v(5), names: v(1), insertion: { walletId: '$1', gameId: v(3), coins: '$2', grossMills: v(4) } } })}
       SELECT entry.id::text AS id, entry.balance_after, voided.voided_at FROM entry, voided, void_entry`;
/** The balance after the debit; null when refused (no debit, hence no insertion). Nothing else: its row is decoded on every insert-coin. */
const PAY_FOR_INSERTION_TAIL = `SELECT (SELECT balance_after FROM debit) AS balance_after`;
const PAY_FOR_INSERTION = `${PAY_FOR_INSERTION_HEAD}
       ${PAY_FOR_INSERTION_TAIL}`;

/**
 * The append-only ledger and each wallet's head (the latest entry's seq and running balance, kept
 * on the wallet row). Every entry is written by the one append (ledger-append.ts), alone or as the
 * first CTEs of a larger statement (insert-coin, void).
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

  /**
   * The wallet of a live account: none for an erased one (CONTRACT §20), whose coins were
   * forfeited. The account row is share-locked, so an erasure running meanwhile is waited for and
   * then seen (erasure locks the account before the wallet: the same order, no deadlock).
   */
  async walletIdOfAccount(accountId: string): Promise<string | undefined> {
    if (!isUuid(accountId)) return undefined;
    const row = await this.uow.one<{ id: string }>(
      `SELECT w.id FROM wallets w JOIN players p ON p.id = w.player_id JOIN accounts a ON a.id = p.account_id
        WHERE p.account_id = $1 AND a.erased_at IS NULL FOR SHARE OF a`,
      [accountId],
    );
    return row?.id;
  }

  async balance(walletId: string): Promise<number> {
    const row = await this.uow.one<{ balance: string }>('SELECT balance FROM wallets WHERE id = $1', [walletId]);
    return row ? Number(row.balance) : 0;
  }

  /** The balance and whether the wallet is frozen (CONTRACT §19), as last committed. */
  async state(walletId: string): Promise<{ balance: number; frozenAt: Date | null }> {
    const row = await this.uow.one<{ balance: string; frozen_at: Date | null }>('SELECT balance, frozen_at FROM wallets WHERE id = $1', [walletId]);
    return { balance: row ? Number(row.balance) : 0, frozenAt: row?.frozen_at ?? null };
  }

  /**
   * Whether the wallet is frozen, its row locked against a freeze (and other purchases) until the
   * transaction ends: a freeze in flight is waited for and its outcome read (CONTRACT §19.1).
   */
  async lockFrozen(walletId: string): Promise<boolean> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ frozen: boolean }>('SELECT frozen_at IS NOT NULL AS frozen FROM wallets WHERE id = $1 FOR NO KEY UPDATE', [walletId]);
    if (!row) throw new Error(`Wallet ${walletId} does not exist.`);
    return row.frozen;
  }

  /** Freezes the wallet; the first freeze's time is kept. `changed` is false when it already was. */
  async freeze(walletId: string): Promise<{ frozenAt: Date; changed: boolean }> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ frozen_at: Date; changed: boolean }>(
      `WITH old AS (SELECT id, frozen_at FROM wallets WHERE id = $1 FOR NO KEY UPDATE)
       UPDATE wallets w SET frozen_at = COALESCE(old.frozen_at, now()) FROM old WHERE w.id = old.id
       RETURNING w.frozen_at, old.frozen_at IS NULL AS changed`,
      [walletId],
    );
    if (!row) throw new Error(`Wallet ${walletId} does not exist.`);
    return { frozenAt: row.frozen_at, changed: row.changed };
  }

  /** Lifts a freeze; `frozenAt` is when it had been frozen (null: it was not). */
  async unfreeze(walletId: string): Promise<{ frozenAt: Date | null }> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ frozen_at: Date | null }>(
      `WITH old AS (SELECT id, frozen_at FROM wallets WHERE id = $1 FOR NO KEY UPDATE)
       UPDATE wallets w SET frozen_at = NULL FROM old WHERE w.id = old.id RETURNING old.frozen_at`,
      [walletId],
    );
    if (!row) throw new Error(`Wallet ${walletId} does not exist.`);
    return { frozenAt: row.frozen_at };
  }

  /**
   * Credits a purchase's coins: `purchase` when it is paid (a second credit of the same purchase is
   * refused by ledger_entries_purchase_credit_key, whatever the code above it does), or coins given
   * back for it (`refund_reversal`, `dispute_won`: at most one per purchase).
   */
  async appendPurchaseCredit(walletId: string, purchaseId: string, coins: number, kind: PurchaseCreditKind, reason: string): Promise<{ entryId: string; balance: number }> {
    const entry = await appendToLedger(this.uow, { walletId, kind, delta: coins, reason, purchaseId });
    if (!entry) throw new Error(`Wallet ${walletId} does not exist.`);
    return entry;
  }

  /**
   * Takes up to `coins` back for a refund or dispute of a purchase (ledger kind refund), never below
   * a balance of 0: the wallet row is locked first, so the amount is computed from the balance no
   * concurrent debit can change before this entry lands.
   */
  async takeBack(walletId: string, purchaseId: string, coins: number, reason: string): Promise<TakeBack> {
    this.uow.requireTransaction();
    const locked = await this.uow.one<{ balance: string }>('SELECT balance FROM wallets WHERE id = $1 FOR NO KEY UPDATE', [walletId]);
    if (!locked) throw new Error(`Wallet ${walletId} does not exist.`);
    const taken = Math.min(coins, Number(locked.balance));
    if (taken === 0) return { taken: 0, entryId: null, balance: Number(locked.balance) };
    const entry = await appendToLedger(this.uow, { walletId, kind: 'refund', delta: -taken, reason, purchaseId });
    return { taken, entryId: entry!.entryId, balance: entry!.balance };
  }

  /**
   * A paid insertion with its player's wallet, locked against a concurrent void, and its void when
   * it has one. The lock is a statement of its own: a void that waited for another reads the
   * voids after that one committed (a join in the locking statement would still see its old
   * snapshot). FOR UPDATE also waits for a score being saved on it (its foreign key holds a key
   * share), so the score removal below sees that score. Undefined for unknown ids.
   */
  async lockInsertionForVoid(insertionId: string): Promise<VoidableInsertion | undefined> {
    this.uow.requireTransaction();
    if (!isUuid(insertionId)) return undefined;
    const locked = await this.uow.one('SELECT id FROM insertions WHERE id = $1 FOR UPDATE', [insertionId]);
    if (!locked) return undefined;
    const row = await this.uow.one<{
      id: string; wallet_id: string; coins: number; player_id: string; game_id: string; developer_id: string;
      voided_at: Date | null; entry_id: string | null; balance_after: string | null;
    }>(
      `SELECT i.id, w.id AS wallet_id, i.coins, i.player_id, i.game_id, e.developer_id,
              v.voided_at, v.ledger_entry_id::text AS entry_id, l.balance_after
         FROM insertions i
         JOIN wallets w ON w.player_id = i.player_id
         JOIN developer_earnings e ON e.insertion_id = i.id
         LEFT JOIN insertion_voids v ON v.insertion_id = i.id
         LEFT JOIN ledger_entries l ON l.id = v.ledger_entry_id
        WHERE i.id = $1`,
      [insertionId],
    );
    if (!row) return undefined;
    return {
      insertionId: row.id,
      walletId: row.wallet_id,
      coins: row.coins,
      playerId: row.player_id,
      gameId: row.game_id,
      developerId: row.developer_id,
      voided: row.voided_at ? { voidedAt: row.voided_at, entryId: row.entry_id!, balance: Number(row.balance_after) } : null,
    };
  }

  /**
   * Voids an insertion in one statement: its coins back to the wallet (ledger kind void), the void
   * row that takes its earning off the developer, and that earning's void entry in the developer
   * ledger. insertion_voids' key refuses a second void.
   */
  async appendVoid(v: { insertion: VoidableInsertion; reason: string; voidedBy: string; grossMills: number; earnedMills: number }): Promise<{ entryId: string; balance: number; voidedAt: Date }> {
    this.uow.requireTransaction();
    const i = v.insertion;
    const entry = ledgerAppendValues({ walletId: i.walletId, kind: 'void', delta: i.coins, reason: VOID_ENTRY_REASON });
    const row = await this.uow.one<{ id: string; balance_after: string; voided_at: Date }>(APPEND_VOID, [
      ...entry, i.insertionId, i.developerId, i.gameId, v.grossMills, v.earnedMills, v.reason, v.voidedBy,
    ]);
    if (!row) throw new Error(`Wallet ${i.walletId} does not exist.`);
    return { entryId: row.id, balance: Number(row.balance_after), voidedAt: row.voided_at };
  }

  /** Appends a credit after the latest entry. */
  async appendCredit(walletId: string, coins: number, reason: string): Promise<{ entryId: string; balance: number }> {
    const entry = await appendToLedger(this.uow, { walletId, kind: 'credit', delta: coins, reason });
    if (!entry) throw new Error(`Wallet ${walletId} does not exist.`);
    return entry;
  }

  /**
   * The money statement of insert-coin: when the wallet's balance covers the price, moves its head,
   * appends the debit, records the insertion and the developer's earning (and appends it to the
   * developer ledger, moving the developer's head: both chains' hashes too), and moves the play
   * session's lastSeenAt (CONTRACT §6) — all or nothing, one round trip that also locks the wallet.
   * Returns null when the balance does not cover it or the wallet is frozen (CONTRACT §19: the
   * freeze costs no round trip of its own), nothing written, the wallet not locked. `riders` (the
   * idempotency key's answer, the webhook event) write only when the debit did; their `{result}` is
   * `{ balance }`, the balance after the debit.
   */
  async payForInsertion(p: InsertionPayment, riders: readonly RidingWrite[] = []): Promise<{ balanceAfter: number } | null> {
    this.uow.requireTransaction();
    const values = ledgerAppendValues({ walletId: p.walletId, kind: 'debit', delta: -p.coins });
    values.push(p.insertionId, p.playSessionId, p.gameId, p.playerId, p.developerId, p.grossMills, p.earnedMills);
    const text = riders.length
      ? withRiders(PAY_FOR_INSERTION_HEAD, values.length, riders, 'EXISTS (SELECT 1 FROM debit)', "jsonb_build_object('balance', (SELECT balance_after FROM debit))", PAY_FOR_INSERTION_TAIL)
      : PAY_FOR_INSERTION;
    const row = await this.uow.one<{ balance_after: string | null }>(text, riders.length ? riderValues(values, riders) : values);
    if (row!.balance_after === null) return null;
    return { balanceAfter: Number(row!.balance_after) };
  }

  /** Newest first; `beforeSeq` pages backwards. One more row than asked tells whether more exist. */
  entries(walletId: string, beforeSeq: number | null, limit: number): Promise<(LedgerEntryView & { seq: number })[]> {
    return this.uow.query(
      `SELECT le.id::text AS id, le.seq, le.delta, le.balance_after::float8 AS "balanceAfter", le.kind, le.reason,
              COALESCE(i.id, v.insertion_id) AS "insertionId", g.slug AS "gameSlug", le.purchase_id AS "purchaseId",
              le.created_at AS "createdAt"
         FROM ledger_entries le
         LEFT JOIN insertions i ON i.ledger_entry_id = le.id
         LEFT JOIN insertion_voids v ON v.ledger_entry_id = le.id
         LEFT JOIN games g ON g.id = COALESCE(i.game_id, v.game_id)
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
   * Every game of the developer, zero rows included, with sums in exact integers (as strings): the
   * earnings of its insertions less those of voided insertions (CONTRACT §19), each void mirroring
   * its insertion's earning. `thisMonth`: only what was earned or voided since the first of this
   * month, 00:00 UTC (a void counts on the day of the void).
   */
  earningsByGame(developerId: string, thisMonth = false): Promise<GameEarningsRow[]> {
    return this.uow.query<GameEarningsRow>(
      `SELECT g.id AS "gameId", g.slug, g.title,
              (COALESCE(e.insertions, 0) - COALESCE(v.insertions, 0))::text AS insertions,
              (COALESCE(e.coins, 0) - COALESCE(v.coins, 0))::text AS coins,
              (COALESCE(e.gross_mills, 0) - COALESCE(v.gross_mills, 0))::text AS "grossMills",
              (COALESCE(e.earned_mills, 0) - COALESCE(v.earned_mills, 0))::text AS "earnedMills"
         FROM games g
         LEFT JOIN (
           SELECT game_id, count(*) AS insertions, sum(coins) AS coins, sum(gross_mills) AS gross_mills, sum(earned_mills) AS earned_mills
             FROM developer_earnings
            WHERE developer_id = $1 AND (NOT $2::boolean OR created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
            GROUP BY game_id
         ) e ON e.game_id = g.id
         LEFT JOIN (
           SELECT game_id, count(*) AS insertions, sum(coins) AS coins, sum(gross_mills) AS gross_mills, sum(earned_mills) AS earned_mills
             FROM insertion_voids
            WHERE developer_id = $1 AND (NOT $2::boolean OR voided_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
            GROUP BY game_id
         ) v ON v.game_id = g.id
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
         UNION ALL
         SELECT v.voided_at, -1, -v.coins, -v.gross_mills, -v.earned_mills
           FROM insertion_voids v, bounds
          WHERE v.developer_id = $1 AND ($3::uuid IS NULL OR v.game_id = $3)
            AND v.voided_at >= (bounds.today - ($2::integer - 1))::timestamp AT TIME ZONE 'UTC'
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
