import { Injectable } from '@nestjs/common';
import type { RidingWrite } from '../../database/riding-write';
import { UnitOfWork } from '../../database/unit-of-work';
import { Metrics } from '../../observability/metrics';
import { InvalidRequestError, NotFoundError } from '../../errors/app-error';
import { earningFor, millsToUsd } from './money';
import { InsufficientCoinsError, WalletFrozenError } from './wallet.errors';
import type { PurchaseCreditKind } from './ledger-append';
import { GameEarningsRow, LedgerEntryView, TakeBack, VoidableInsertion, WalletRepository } from './wallet.repository';

export type { LedgerEntryView, TakeBack, VoidableInsertion } from './wallet.repository';
export type { LedgerKind, PurchaseCreditKind } from './ledger-append';

export interface WalletPage {
  balance: number;
  entries: LedgerEntryView[];
  /** The `before` of the next (older) page; null at the end. */
  nextBefore: string | null;
}

export interface MoneyTotals {
  insertions: number;
  coins: number;
  grossUsd: string;
  earnedUsd: string;
}

export interface EarningsReport {
  currency: 'USD';
  games: (MoneyTotals & { gameId: string; slug: string })[];
  total: MoneyTotals;
}

export interface DailyEarnings {
  currency: 'USD';
  /** One per UTC calendar day, oldest first, the last one today. */
  days: (MoneyTotals & { date: string })[];
}

export interface InsertionPurchase {
  walletId: string;
  coins: number;
  insertionId: string;
  playSessionId: string;
  gameId: string;
  playerId: string;
  developerId: string;
}

/** Wallets and their append-only ledger, and developers' earnings. Other modules use this service, never the tables. */
@Injectable()
export class WalletService {
  constructor(
    private readonly wallets: WalletRepository,
    private readonly uow: UnitOfWork,
    private readonly metrics: Metrics,
  ) {}

  walletIdOf(playerId: string): Promise<string | undefined> {
    return this.wallets.walletIdOf(playerId);
  }

  /** The wallet of an account's linked player; undefined for unknown or unlinked accounts. */
  walletIdOfAccount(accountId: string): Promise<string | undefined> {
    return this.wallets.walletIdOfAccount(accountId);
  }

  /** Balance in coins: the wallet's head, the latest ledger entry's running balance (0 for an empty ledger). */
  balance(walletId: string): Promise<number> {
    return this.wallets.balance(walletId);
  }

  /** Adds coins (inside the caller's transaction). */
  async credit(walletId: string, coins: number, reason: string): Promise<{ entryId: string; balance: number }> {
    return this.wallets.appendCredit(walletId, coins, reason);
  }

  state(walletId: string): Promise<{ balance: number; frozenAt: Date | null }> {
    return this.wallets.state(walletId);
  }

  /**
   * Whether a freeze (CONTRACT §19) stops a purchase, inside the caller's transaction: the wallet row
   * stays locked until it ends, so a freeze that answered before it is seen and one that comes after
   * waits for it (§19.1 freeze order).
   */
  isFrozenLocked(walletId: string): Promise<boolean> {
    return this.wallets.lockFrozen(walletId);
  }

  /** Freezes (inside the caller's transaction); `changed` is false when it already was frozen. */
  freeze(walletId: string): Promise<{ frozenAt: Date; changed: boolean }> {
    return this.wallets.freeze(walletId);
  }

  /** Lifts a freeze; `frozenAt` is null when the wallet was not frozen. */
  unfreeze(walletId: string): Promise<{ frozenAt: Date | null }> {
    return this.wallets.unfreeze(walletId);
  }

  /** A paid purchase's coins, credited once (inside the caller's transaction). */
  creditPurchase(walletId: string, purchaseId: string, coins: number): Promise<{ entryId: string; balance: number }> {
    return this.wallets.appendPurchaseCredit(walletId, purchaseId, coins, 'purchase', `Bought ${coins} coins`);
  }

  /** Coins taken back for a purchase given back (a failed refund, a won dispute), inside the caller's transaction. */
  returnPurchaseCoins(walletId: string, purchaseId: string, coins: number, kind: Exclude<PurchaseCreditKind, 'purchase'>, reason: string): Promise<{ entryId: string; balance: number }> {
    return this.wallets.appendPurchaseCredit(walletId, purchaseId, coins, kind, reason);
  }

  /** Coins of a refunded or disputed purchase taken back, never below 0 (inside the caller's transaction). */
  takeBackPurchase(walletId: string, purchaseId: string, coins: number, reason: string): Promise<TakeBack> {
    return this.wallets.takeBack(walletId, purchaseId, coins, reason);
  }

  /** The insertion and its wallet, locked for a void; undefined for unknown ids. */
  lockInsertionForVoid(insertionId: string): Promise<VoidableInsertion | undefined> {
    return this.wallets.lockInsertionForVoid(insertionId);
  }

  /** Returns the insertion's coins and takes its earning off the developer (inside the caller's transaction). */
  voidInsertion(insertion: VoidableInsertion, reason: string, voidedBy: string): Promise<{ entryId: string; balance: number; voidedAt: Date }> {
    return this.wallets.appendVoid({ insertion, reason, voidedBy, ...earningFor(insertion.coins) });
  }

  /**
   * Pays for one insertion inside the caller's transaction: the debit, the insertion, the
   * developer's 70% earning and the play session's lastSeenAt in one statement (CONTRACT §6, §8).
   * 403 WALLET_FROZEN when a dispute froze the wallet, else 402 INSUFFICIENT_COINS when the balance
   * does not cover it; the caller's transaction then rolls back.
   */
  /** `riders`: writes that land with the payment (the key's answer, the webhook event; their `{result}` is `{ balance }`). */
  async payForInsertion(purchase: InsertionPurchase, ...riders: RidingWrite[]): Promise<{ balance: number }> {
    const paid = await this.wallets.payForInsertion({ ...purchase, ...earningFor(purchase.coins) }, riders);
    if (!paid) {
      // Refused: frozen, or the balance as it is now (a fresh statement sees what a concurrent debit committed).
      const { balance, frozenAt } = await this.wallets.state(purchase.walletId);
      if (frozenAt) throw new WalletFrozenError();
      throw new InsufficientCoinsError(balance, purchase.coins);
    }
    // Counted once the caller's transaction commits (never for one that rolls back); nothing to do with metrics off.
    if (this.metrics.enabled) {
      this.uow.afterCommit(() => {
        this.metrics.insertions.inc();
        this.metrics.coinsSpent.inc(purchase.coins);
      });
    }
    return { balance: paid.balanceAfter };
  }

  async entries(walletId: string, options: { limit: number; before?: string }): Promise<WalletPage> {
    let beforeSeq: number | null = null;
    if (options.before !== undefined) {
      const seq = await this.wallets.seqOfEntry(walletId, options.before);
      if (seq === undefined) {
        const words = 'Before: no entry of your wallet has this id.';
        throw new InvalidRequestError(words, [{ field: 'before', problems: [words] }]);
      }
      beforeSeq = seq;
    }
    const [balance, rows] = await Promise.all([
      this.wallets.balance(walletId),
      this.wallets.entries(walletId, beforeSeq, options.limit + 1),
    ]);
    const more = rows.length > options.limit;
    const entries = rows.slice(0, options.limit).map(({ seq: _seq, ...entry }) => entry);
    return { balance, entries, nextBefore: more ? entries[entries.length - 1].id : null };
  }

  /** Every game of the developer, zero rows included; money as exact decimal strings (§16.20, §16.33). */
  async earnings(developerId: string): Promise<EarningsReport> {
    return toReport(await this.wallets.earningsByGame(developerId));
  }

  /** As `earnings`, counting only this calendar month (UTC), with each game's title: the developer's overview page. */
  async earningsThisMonth(developerId: string): Promise<(MoneyTotals & { gameId: string; title: string })[]> {
    return (await this.wallets.earningsByGame(developerId, true)).map((row) => ({ gameId: row.gameId, title: row.title, ...totals(row) }));
  }

  /**
   * Earnings per UTC day for the last `days` days (CONTRACT §17): all the developer's games, or
   * one (404 NOT_FOUND for an unknown or another developer's game).
   */
  async dailyEarnings(developerId: string, days: number, gameId?: string): Promise<DailyEarnings> {
    if (gameId !== undefined && !(await this.wallets.isDevelopersGame(developerId, gameId))) throw new NotFoundError('No such game.');
    const rows = await this.wallets.dailyEarnings(developerId, days, gameId ?? null);
    return { currency: 'USD', days: rows.map((row) => ({ date: row.date, ...totals(row) })) };
  }
}

function totals(row: { insertions: string; coins: string; grossMills: string; earnedMills: string }): MoneyTotals {
  return { insertions: Number(row.insertions), coins: Number(row.coins), grossUsd: millsToUsd(row.grossMills), earnedUsd: millsToUsd(row.earnedMills) };
}

function toReport(rows: GameEarningsRow[]): EarningsReport {
  let insertions = 0;
  let coins = 0;
  let gross = 0n;
  let earned = 0n;
  const games = rows.map((row) => {
    insertions += Number(row.insertions);
    coins += Number(row.coins);
    gross += BigInt(row.grossMills);
    earned += BigInt(row.earnedMills);
    return { gameId: row.gameId, slug: row.slug, ...totals(row) };
  });
  return { currency: 'USD', games, total: { insertions, coins, grossUsd: millsToUsd(gross), earnedUsd: millsToUsd(earned) } };
}
