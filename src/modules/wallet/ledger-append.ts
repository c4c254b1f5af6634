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
export function sqlKindList(kinds: readonly string[]): string {
  return kinds.map((k) => `'${k}'`).join(', ');
}

/**
 * The hash chains (CONTRACT §22, docs/database.md "Hash chains"). Every entry of the wallet ledger
 * and of the developer ledger carries `hash = sha256(previous || encoding)`: `previous` is the hash of
 * the ledger's entry before it (the same wallet's or the same developer shard's; CHAIN_GENESIS, 32
 * zero bytes, for the first), and `encoding` the UTF-8 bytes of one line: the ledger's tag, then the
 * entry's fields in a fixed order, joined by `|`. Each field is its canonical text: uuids lower-case
 * with hyphens, integers in decimal, `created_at` as whole microseconds since 1970-01-01 UTC, NULL as
 * nothing; the one free-text field (the wallet entry's `reason`) is quoted as an SQL literal
 * (`quote_nullable`: `'it''s'`, NULL as `NULL`), so no text can pass for other fields. Every other
 * field's text holds no `|`, so the line is read back one way only. One `format()` call: about
 * half the cost of a length-prefixed encoding of each field (docs/performance.md). The chain's head
 * (the newest hash) is kept with the balance (`wallets.last_hash`, `developer_balances.last_hash`).
 * The append computes it in its own statement; `hash-chains.ts` recomputes every chain from the same
 * encoding.
 */
export const CHAIN_GENESIS_HEX = '00'.repeat(32);
export const CHAIN_GENESIS_SQL = `'\\x${CHAIN_GENESIS_HEX}'::bytea`;

/** Each ledger's tag, the fields its hash covers in order, and its free-text fields (changing any is a new tag and a migration). */
export const CHAINS = {
  wallet: {
    tag: 'arcade/wallet-ledger/v1',
    fields: ['wallet_id', 'seq', 'kind', 'delta', 'balance_after', 'reason', 'purchase_id', 'created_at'],
    freeText: ['reason'],
  },
  developer: {
    tag: 'arcade/developer-ledger/v1',
    fields: ['developer_id', 'shard', 'seq', 'kind', 'amount_mills', 'balance_after_mills', 'insertion_id', 'game_id', 'coins', 'gross_mills', 'payout_id', 'created_at'],
    freeText: [],
  },
} as const satisfies Record<string, { tag: string; fields: readonly string[]; freeText: readonly string[] }>;
export type ChainName = keyof typeof CHAINS;
type ChainField<L extends ChainName> = (typeof CHAINS)[L]['fields'][number];

/** The canonical text of a timestamptz: whole microseconds since the epoch (UTC, no time zone or DateStyle involved). */
function micros(expression: string): string {
  return `(extract(epoch FROM ${expression}) * 1000000)::bigint`;
}

/**
 * `sha256(<previous> || <encoding>)` as SQL, from an SQL expression for each field (NULL for an
 * absent one). The one definition of the encoding: the appends below and the chain check use it.
 */
export function chainHashSql<L extends ChainName>(ledger: L, previous: string, values: Record<ChainField<L>, string>): string {
  const chain: { tag: string; fields: readonly string[]; freeText: readonly string[] } = CHAINS[ledger];
  const line = [chain.tag, ...chain.fields.map((field) => (chain.freeText.includes(field) ? '%L' : '%s'))].join('|');
  const args = (chain.fields as readonly ChainField<L>[]).map((field) => (field === 'created_at' ? micros(values[field]) : `(${values[field]})`));
  return `sha256(${previous} || convert_to(format('${line}', ${args.join(', ')}), 'UTF8'))`;
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
    const sign = rule.coins === 'in' ? '' : '-';
    const columns = ['wallet_id', 'seq', 'delta', 'balance_after', 'kind'];
    const selected = ['head.id', 'head.last_seq', `${sign}$2::integer`, 'head.balance', `'${kind}'`];
    let valueCount = 2;
    let reason = 'NULL';
    let purchase = 'NULL';
    if (kind !== 'debit') {
      columns.push('reason');
      selected.push((reason = `$${++valueCount}::text`));
    }
    if (rule.purchase) {
      columns.push('purchase_id');
      selected.push((purchase = `$${++valueCount}::uuid`));
    }
    columns.push('created_at', 'hash');
    selected.push('now()', 'head.last_hash');
    // The SET's right-hand sides read the row as it was: last_hash is the previous entry's hash.
    const hash = chainHashSql('wallet', 'last_hash', {
      wallet_id: 'id', seq: 'last_seq + 1', kind: `'${kind}'`, delta: `${sign}$2::integer`,
      balance_after: `balance ${rule.coins === 'in' ? '+' : '-'} $2::integer`, reason, purchase_id: purchase, created_at: 'now()',
    });
    const guard = options.onlyIfCovered ? ' AND balance >= $2::integer AND frozen_at IS NULL' : '';
    const text = `WITH head AS (
         UPDATE wallets SET balance = balance ${rule.coins === 'in' ? '+' : '-'} $2::integer, last_seq = last_seq + 1,
                last_hash = ${hash}
          WHERE id = $1${guard}
         RETURNING id, last_seq, balance, last_hash
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

/**
 * Every kind of developer ledger entry (CONTRACT §22): which way it moves the developer's money and
 * what it names. Amounts are mills (1/1000 USD, money.ts), exact. The balance is the ledger's sum and
 * may go below zero (a void after a payout). The entity's checks are built from this list; the
 * migration spells it out.
 */
export const DEVELOPER_LEDGER_KINDS = {
  earning: { mills: 'in', names: 'insertion', means: "a paid insertion's 70%" },
  void: { mills: 'out', names: 'insertion', means: "a voided insertion's earning taken back" },
  payout: { mills: 'out', names: 'payout', means: 'money sent to the developer (pending or paid)' },
  payout_reversal: { mills: 'in', names: 'payout', means: 'a failed payout written back' },
} as const satisfies Record<string, { mills: 'in' | 'out'; names: 'insertion' | 'payout'; means: string }>;

export type DeveloperLedgerKind = keyof typeof DEVELOPER_LEDGER_KINDS;
export const DEVELOPER_LEDGER_KIND_NAMES = Object.keys(DEVELOPER_LEDGER_KINDS) as DeveloperLedgerKind[];

export function developerLedgerKindsWhere(rule: { mills?: 'in' | 'out'; names?: 'insertion' | 'payout' }): DeveloperLedgerKind[] {
  return DEVELOPER_LEDGER_KIND_NAMES.filter(
    (k) => (rule.mills === undefined || DEVELOPER_LEDGER_KINDS[k].mills === rule.mills) && (rule.names === undefined || DEVELOPER_LEDGER_KINDS[k].names === rule.names),
  );
}

/**
 * The developer ledger's shards (docs/database.md, "Developer ledger shards"). One developer's ledger
 * is DEVELOPER_LEDGER_SHARDS chains, each with its own head row in developer_balances (balance, last
 * seq, last hash), so insertions by different players do not queue on one row: an earning or a void
 * goes to the shard of the paying wallet (its uuid's last byte mod N: random in every uuid version we
 * make, and the same in the migration; N divides 256), where that wallet's insertions already queue on the wallet
 * row. The developer's balance is the sum of its shards' balances (= its ledger's sum). Developer-level
 * writes (payouts, their reversals) lock every shard first, in shard order (`lockDeveloperHeads`), and
 * append to shard 0. Every developer has all its head rows from its creation (a trigger on developers),
 * so an append is a plain UPDATE. The migration spells the number and the rule out: change both together.
 */
export const DEVELOPER_LEDGER_SHARDS = 256;
// The rule takes one byte: N must divide 256 for every shard to be as likely.
if (256 % DEVELOPER_LEDGER_SHARDS !== 0) throw new Error(`DEVELOPER_LEDGER_SHARDS must divide 256, not ${DEVELOPER_LEDGER_SHARDS}.`);

/** The shard of a wallet's earnings and voids, as SQL over an expression giving the wallet's uuid. */
export function developerShardSql(walletId: string): string {
  return `(get_byte(uuid_send(${walletId}), 15) % ${DEVELOPER_LEDGER_SHARDS})`;
}

/** The shard of developer-level entries (payouts and their reversals), written with every shard locked. */
export const DEVELOPER_LEVEL_SHARD = 0;

/**
 * One developer ledger entry to append: `amountMills` signed (its kind's sign), and the insertion or
 * payout it is about. An earning or a void also carries its insertion's game, coins and gross (the
 * earning entry is the developer's record of the insertion: developer_earnings is a view of them).
 */
export type DeveloperLedgerAppend =
  | { developerId: string; kind: 'earning' | 'void'; amountMills: number; insertionId: string; walletId: string; gameId: string; coins: number; grossMills: number }
  | { developerId: string; kind: 'payout' | 'payout_reversal'; amountMills: number; payoutId: string };

type Placeholder = `$${number}`;

export interface DeveloperLedgerAppendOptions {
  /** The entry's CTE name (`<as>.id`, `<as>.balance_after_mills`); its head's is `<as>_head`. Default `developer_entry`. */
  as?: string;
  /** A CTE of the host statement: the entry is written only when it has a row (the host's own write happened). */
  after?: string;
  /**
   * The host's placeholders holding the developer, the unsigned amount in mills and the insertion or
   * payout, and for earnings and voids the paying wallet (whose shard the entry goes to) and the
   * insertion's game, coins and gross mills.
   */
  params: { developerId: Placeholder; amountMills: Placeholder; names: Placeholder; insertion?: { walletId: Placeholder; gameId: Placeholder; coins: Placeholder; grossMills: Placeholder } };
}

/**
 * The developer ledger append as SQL, the same shape as the wallet's: CTEs `<as>_head AS (UPDATE
 * developer_balances ...), <as> AS (INSERT INTO developer_ledger_entries ...)` to put in a host
 * statement's WITH (after a comma, or after `WITH`). The shard's head row (it exists from the
 * developer's creation) is moved; its row lock serialises the appends to that shard until the
 * transaction ends (a wallet's earnings and voids, already queued on the wallet row), and the
 * UPDATE reads the head as the last committed append left it, so seq never collides. The hash is
 * computed in the same statement, from the shard's previous hash (genesis for its first entry).
 * Should the head row be missing the entry's developer_id is NULL and the statement fails, so a
 * host write never lands without its entry.
 *
 * It rides the statements that already exist (insert-coin's money statement writes the earning, the
 * void's statement the void), so no writer sends one more statement for it; payouts (CONTRACT §22)
 * use `appendToDeveloperLedger`. This is the only place that writes developer_ledger_entries and
 * moves developer_balances (test/e2e/ledger-append.e2e-spec.ts).
 */
export function developerLedgerAppendSql(kind: DeveloperLedgerKind, options: DeveloperLedgerAppendOptions): string {
  const as = options.as ?? 'developer_entry';
  const { developerId, amountMills, names, insertion } = options.params;
  const rule = DEVELOPER_LEDGER_KINDS[kind];
  if ((rule.names === 'insertion') !== (insertion !== undefined)) throw new Error(`A ${kind} entry ${rule.names === 'insertion' ? 'needs' : 'takes no'} insertion fields: its shard is ${rule.names === 'insertion' ? "the wallet's" : 'the developer-level one'}.`);
  const placeholders = [developerId, amountMills, names, ...(insertion ? [insertion.walletId, insertion.gameId, insertion.coins, insertion.grossMills] : [])];
  for (const p of placeholders) if (!/^\$\d+$/.test(p)) throw new Error(`Not a placeholder: ${p}`);
  const key = `${kind}|${as}|${options.after ?? ''}|${placeholders.join(',')}`;
  let text = developerTexts.get(key);
  if (text === undefined) {
    const signed = rule.mills === 'in' ? `${amountMills}::bigint` : `(-${amountMills}::bigint)`;
    const link = `${names}::uuid`;
    const shard = insertion ? developerShardSql(`${insertion.walletId}::uuid`) : String(DEVELOPER_LEVEL_SHARD);
    const game = insertion ? `${insertion.gameId}::uuid` : 'NULL';
    const coins = insertion ? `${insertion.coins}::integer` : 'NULL';
    const gross = insertion ? `${insertion.grossMills}::bigint` : 'NULL';
    // The SET's right-hand sides read the row as it was: last_hash is the shard's previous entry's hash.
    const hash = chainHashSql('developer', 'b.last_hash', {
      developer_id: 'b.developer_id', shard: 'b.shard', seq: 'b.last_seq + 1', kind: `'${kind}'`, amount_mills: signed, balance_after_mills: `b.balance_mills + ${signed}`,
      insertion_id: rule.names === 'insertion' ? link : 'NULL', game_id: game, coins, gross_mills: gross,
      payout_id: rule.names === 'payout' ? link : 'NULL', created_at: 'now()',
    });
    const host = options.after ? ` FROM ${options.after}` : '';
    const columns = ['developer_id', 'shard', 'seq', 'kind', 'amount_mills', 'balance_after_mills', `${rule.names}_id`, ...(insertion ? ['game_id', 'coins', 'gross_mills'] : []), 'created_at', 'hash'];
    const values = ['h.developer_id', 'h.shard', 'h.last_seq', `'${kind}'`, signed, 'h.balance_mills', link, ...(insertion ? [game, coins, gross] : []), 'now()', 'h.last_hash'];
    text = `${as}_head AS (
         UPDATE developer_balances b SET balance_mills = b.balance_mills + ${signed}, last_seq = b.last_seq + 1, last_hash = ${hash}${host}
          WHERE b.developer_id = ${developerId}::uuid AND b.shard = ${shard}
         RETURNING b.developer_id, b.shard, b.last_seq, b.balance_mills, b.last_hash
       ), ${as} AS (
         INSERT INTO developer_ledger_entries (${columns.join(', ')})
         SELECT ${values.join(', ')} FROM ${options.after ? `${options.after} LEFT JOIN ${as}_head h ON true` : `${as}_head h`}
         RETURNING id, balance_after_mills
       )`;
    developerTexts.set(key, text);
    developerAppends.push({ kind, text });
  }
  return text;
}
const developerTexts = new Map<string, string>();
const developerAppends: { kind: DeveloperLedgerKind; text: string }[] = [];

/** Every developer append text built so far, with its kind: what test/e2e/ledger-append.e2e-spec.ts finds in the statements sent. */
export function builtDeveloperAppends(): readonly { kind: DeveloperLedgerKind; text: string }[] {
  return developerAppends;
}

/** The values of a developer append whose placeholders are `$1`, `$2`, `$3` (and `$4`-`$7` the wallet, game, coins and gross), as `appendToDeveloperLedger` numbers them; refuses a wrong sign. */
export function developerLedgerAppendValues(entry: DeveloperLedgerAppend): unknown[] {
  const rule = DEVELOPER_LEDGER_KINDS[entry.kind];
  if (!Number.isSafeInteger(entry.amountMills) || entry.amountMills === 0 || entry.amountMills > 0 !== (rule.mills === 'in')) {
    throw new Error(`A ${entry.kind} entry moves money ${rule.mills}: ${entry.amountMills} mills does not.`);
  }
  return 'insertionId' in entry
    ? [entry.developerId, Math.abs(entry.amountMills), entry.insertionId, entry.walletId, entry.gameId, entry.coins, entry.grossMills]
    : [entry.developerId, Math.abs(entry.amountMills), entry.payoutId];
}

const LOCK_DEVELOPER_HEADS = `SELECT sum(balance_mills)::text AS balance_mills, count(*)::int AS shards
       FROM (SELECT balance_mills FROM developer_balances WHERE developer_id = $1 ORDER BY shard FOR UPDATE) heads`;

/**
 * Locks every shard head of the developer, in shard order, until the transaction ends, and answers
 * the developer's balance (the sum of its shards'): what a payout, a payout reversal or any other
 * developer-level write reads and writes under, so no earning or void moves the balance meanwhile.
 * Always in shard order, so two such writers never deadlock (an insertion locks one shard only).
 */
export async function lockDeveloperHeads(uow: UnitOfWork, developerId: string): Promise<{ balanceMills: number }> {
  uow.requireTransaction();
  const row = await uow.one<{ balance_mills: string | null; shards: number }>(LOCK_DEVELOPER_HEADS, [developerId]);
  if (row?.shards !== DEVELOPER_LEDGER_SHARDS) throw new Error(`Developer ${developerId} has ${row?.shards ?? 0} ledger heads, not ${DEVELOPER_LEDGER_SHARDS}.`);
  return { balanceMills: Number(row.balance_mills) };
}

/**
 * Appends one developer ledger entry as a statement of its own, inside the caller's transaction
 * (payouts and their reversals: every shard locked first, then the entry in shard 0). Answers the
 * entry and the developer's balance after it (the sum of its shards'). A caller that has locked the
 * heads itself in this transaction (`lockDeveloperHeads`, to decide the amount) passes what that
 * answered as `locked`, and the heads are not locked again.
 */
export async function appendToDeveloperLedger(uow: UnitOfWork, entry: DeveloperLedgerAppend, locked?: { balanceMills: number }): Promise<{ entryId: string; balanceMills: number }> {
  uow.requireTransaction();
  const values = developerLedgerAppendValues(entry);
  const developerLevel = !('insertionId' in entry);
  const before = developerLevel ? (locked ?? (await lockDeveloperHeads(uow, entry.developerId))) : undefined;
  const text = `WITH ${developerLedgerAppendSql(entry.kind, { params: { developerId: '$1', amountMills: '$2', names: '$3', ...(developerLevel ? {} : { insertion: { walletId: '$4', gameId: '$5', coins: '$6', grossMills: '$7' } as const }) } })}
       SELECT developer_entry.id::text AS id, developer_entry.balance_after_mills FROM developer_entry`;
  const row = await uow.one<{ id: string; balance_after_mills: string }>(text, values);
  if (!row) throw new Error(`Developer ${entry.developerId} has no ledger head.`);
  return { entryId: row.id, balanceMills: before ? before.balanceMills + entry.amountMills : Number(row.balance_after_mills) };
}
