import type { UnitOfWork } from '../../database/unit-of-work';
import { appendToLedger } from './ledger-append';

/** A wallet as a person's data export shows it (CONTRACT §20): the balance and every ledger entry, oldest first. */
export interface WalletExport {
  balance: number;
  entries: { id: string; seq: number; delta: number; balanceAfter: number; kind: string; reason: string | null; purchaseId: string | null; createdAt: Date }[];
}

/** The export's `wallet` part of a player (CONTRACT §20), or null when the player has no wallet. */
export async function walletExport(uow: UnitOfWork, playerId: string): Promise<WalletExport | null> {
  const wallet = await uow.one<{ id: string; balance: number }>('SELECT id, balance::float8 AS balance FROM wallets WHERE player_id = $1', [playerId]);
  if (!wallet) return null;
  const entries = await uow.query<WalletExport['entries'][number]>(
    `SELECT id::text AS id, seq, delta, balance_after::float8 AS "balanceAfter", kind, reason, purchase_id AS "purchaseId", created_at AS "createdAt"
       FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq`,
    [wallet.id],
  );
  return { balance: wallet.balance, entries };
}

/**
 * Account erasure (CONTRACT §20): the wallet's remaining coins leave it as one `forfeit` entry (the
 * balance stays the ledger's sum, now 0). The wallet row is locked first, so no debit lands
 * between reading the balance and the entry. Returns the coins forfeited (0: no entry written).
 */
export async function forfeitWallet(uow: UnitOfWork, playerId: string): Promise<{ walletId: string; coins: number } | null> {
  uow.requireTransaction();
  const locked = await uow.one<{ id: string; balance: string }>('SELECT id, balance FROM wallets WHERE player_id = $1 FOR NO KEY UPDATE', [playerId]);
  if (!locked) return null;
  const coins = Number(locked.balance);
  if (coins === 0) return { walletId: locked.id, coins: 0 };
  await appendToLedger(uow, { walletId: locked.id, kind: 'forfeit', delta: -coins, reason: 'Coins forfeited: the account was deleted' });
  return { walletId: locked.id, coins };
}

/** A developer's earning as a data export shows it (CONTRACT §20): one per paid insertion, `voided` when its play was voided. */
export interface EarningExport {
  insertionId: string;
  gameId: string;
  coins: number;
  grossMills: number;
  earnedMills: number;
  createdAt: Date;
  voided: boolean;
}

/** The export's `developer.earnings` part (CONTRACT §20): every earning of the developer, oldest first. */
export function earningsExport(uow: UnitOfWork, developerId: string): Promise<EarningExport[]> {
  return uow.query<EarningExport>(
    `SELECT e.insertion_id AS "insertionId", e.game_id AS "gameId", e.coins, e.gross_mills::float8 AS "grossMills",
            e.earned_mills::float8 AS "earnedMills", e.created_at AS "createdAt", v.insertion_id IS NOT NULL AS voided
       FROM developer_earnings e LEFT JOIN insertion_voids v ON v.insertion_id = e.insertion_id
      WHERE e.developer_id = $1 ORDER BY e.created_at, e.id`,
    [developerId],
  );
}
