import type { UnitOfWork } from '../../database/unit-of-work';

/**
 * Every kind of wallet ledger entry: which way it moves coins, whether it names a purchase, and what
 * it means. The one list: the entity's check constraints, the API's enum, check:invariants and the
 * append below are built from it; the migrations spell it out (they import no module code), and
 * test/e2e/ledger-append.e2e-spec.ts checks the database's constraints against it.
 */
export const LEDGER_KINDS = {
  credit: { coins: 'in', purchase: false, means: 'an admin credit' },
  debit: { coins: 'out', purchase: false, means: 'an insertion' },
  purchase: { coins: 'in', purchase: true, means: 'coins bought' },
  refund: { coins: 'out', purchase: true, means: 'coins taken back for a refund (whole or partial) or a dispute' },
  refund_reversal: { coins: 'in', purchase: true, means: 'coins given back because the provider reported a refund failed' },
  dispute_won: { coins: 'in', purchase: true, means: 'coins given back when a dispute was won' },
  void: { coins: 'in', purchase: false, means: "an insertion's coins returned" },
  forfeit: { coins: 'out', purchase: false, means: 'the coins left when the account was deleted' },
} as const satisfies Record<string, { coins: 'in' | 'out'; purchase: boolean; means: string }>;

export type LedgerKind = keyof typeof LEDGER_KINDS;

type KindsWhere<P> = { [K in LedgerKind]: (typeof LEDGER_KINDS)[K] extends P ? K : never }[LedgerKind];

/** Entries that name their purchase (ledger_entries_purchase_link). */
export type PurchaseKind = KindsWhere<{ purchase: true }>;
/** Entries that add a purchase's coins: its credit, a failed refund's coins back, a won dispute's. */
export type PurchaseCreditKind = KindsWhere<{ purchase: true; coins: 'in' }>;

export const LEDGER_KIND_NAMES = Object.keys(LEDGER_KINDS) as LedgerKind[];

export function ledgerKindsWhere(rule: { coins?: 'in' | 'out'; purchase?: boolean }): LedgerKind[] {
  return LEDGER_KIND_NAMES.filter((k) => (rule.coins === undefined || LEDGER_KINDS[k].coins === rule.coins) && (rule.purchase === undefined || LEDGER_KINDS[k].purchase === rule.purchase));
}

/** `'credit', 'purchase'`: kinds as an SQL list (they are identifiers of ours, never input). */
export function sqlKindList(kinds: readonly LedgerKind[]): string {
  return kinds.map((k) => `'${k}'`).join(', ');
}

/**
 * One entry to append. `delta` is signed (its sign must be its kind's); `reason` is for people (a
 * debit has none: its insertion says it); `purchaseId` exactly for the purchase kinds.
 */
export type LedgerAppend =
  | { walletId: string; kind: 'debit'; delta: number; reason?: null; purchaseId?: null }
  | { walletId: string; kind: Exclude<LedgerKind, PurchaseKind | 'debit'>; delta: number; reason: string; purchaseId?: null }
  | { walletId: string; kind: PurchaseKind; delta: number; reason: string; purchaseId: string };

export interface LedgerAppendOptions {
  /** The entry's CTE name, for a host statement that builds on it (`<as>.id`, `<as>.balance_after`). Default `entry`. */
  as?: string;
  /**
   * Append only when the balance covers the coins and the wallet is not frozen (insert-coin's
   * debit): otherwise the head does not move and the entry CTE is empty. Without it the
   * append is refused only by the database (ledger_entries_balance_non_negative).
   */
  onlyIfCovered?: boolean;
}

/**
 * The ledger append as SQL: `WITH head AS (UPDATE wallets ...), <as> AS (INSERT INTO ledger_entries ...)`,
 * the wallet's head (its newest seq and running balance) moved and the entry inserted after it in
 * one statement. The head's row update locks the wallet until the transaction ends and reads the
 * balance as the last committed append left it, so seq never collides and no balance goes below 0.
 *
 * Placeholders: `$1` the wallet, `$2` the coins (unsigned: the kind gives the sign; a host may use
 * `$2` for the same coins), then `$3` the reason (every kind but debit), then the purchase (purchase
 * kinds). A host statement appends its CTEs (`, name AS (...)`) and its own values from
 * `$<valueCount + 1>`, and ends with its SELECT. `values` of an entry are `ledgerAppendValues`.
 * Texts are built once per kind and options, so prepared statements keep their names.
 *
 * This is the only place that writes ledger_entries and moves wallets' balances: every writer
 * (insert-coin, admin credits, purchases, refunds and disputes, voids, forfeits) goes through it
 * (test/e2e/ledger-append.e2e-spec.ts reads every statement they send).
 */
export function ledgerAppendSql(kind: LedgerKind, options: LedgerAppendOptions = {}): { text: string; valueCount: number } {
  const as = options.as ?? 'entry';
  const key = `${kind}|${as}|${options.onlyIfCovered === true}`;
  let built = texts.get(key);
  if (!built) {
    const rule = LEDGER_KINDS[kind];
    const columns = ['wallet_id', 'seq', 'delta', 'balance_after', 'kind'];
    const selected = ['head.id', 'head.last_seq', `${rule.coins === 'in' ? '' : '-'}$2::integer`, 'head.balance', `'${kind}'`];
    let valueCount = 2;
    if (kind !== 'debit') {
      columns.push('reason');
      selected.push(`$${++valueCount}::text`);
    }
    if (rule.purchase) {
      columns.push('purchase_id');
      selected.push(`$${++valueCount}::uuid`);
    }
    const guard = options.onlyIfCovered ? ' AND balance >= $2::integer AND frozen_at IS NULL' : '';
    const text = `WITH head AS (
         UPDATE wallets SET balance = balance ${rule.coins === 'in' ? '+' : '-'} $2::integer, last_seq = last_seq + 1
          WHERE id = $1${guard}
         RETURNING id, last_seq, balance
       ), ${as} AS (
         INSERT INTO ledger_entries (${columns.join(', ')})
         SELECT ${selected.join(', ')} FROM head
         RETURNING id, balance_after
       )`;
    texts.set(key, (built = { text, valueCount }));
  }
  return built;
}
const texts = new Map<string, { text: string; valueCount: number }>();

/** The values of `ledgerAppendSql(entry.kind)`'s placeholders, in order; refuses a delta whose sign is not its kind's. */
export function ledgerAppendValues(entry: LedgerAppend): unknown[] {
  const rule = LEDGER_KINDS[entry.kind];
  if (!Number.isSafeInteger(entry.delta) || entry.delta === 0 || entry.delta > 0 !== (rule.coins === 'in')) {
    throw new Error(`A ${entry.kind} entry moves coins ${rule.coins}: delta ${entry.delta} does not.`);
  }
  const values: unknown[] = [entry.walletId, Math.abs(entry.delta)];
  if (entry.kind !== 'debit') values.push(entry.reason);
  if (rule.purchase) values.push(entry.purchaseId);
  return values;
}

/**
 * Appends one entry as a statement of its own, inside the caller's transaction. Undefined when
 * the wallet does not exist (nothing written).
 */
export async function appendToLedger(uow: UnitOfWork, entry: LedgerAppend): Promise<{ entryId: string; balance: number } | undefined> {
  uow.requireTransaction();
  const row = await uow.one<{ id: string; balance_after: string }>(appendStatement(entry.kind), ledgerAppendValues(entry));
  return row && { entryId: row.id, balance: Number(row.balance_after) };
}

function appendStatement(kind: LedgerKind): string {
  let text = statements.get(kind);
  if (text === undefined) {
    text = `${ledgerAppendSql(kind).text}
       SELECT entry.id::text AS id, entry.balance_after FROM entry`;
    statements.set(kind, text);
  }
  return text;
}
const statements = new Map<LedgerKind, string>();
