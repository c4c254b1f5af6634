import type { UnitOfWork } from '../../database/unit-of-work';

/**
 * A developer's money as CONTRACT §22 reads it: the balance (the sum of its shards' heads = its
 * ledger's sum) and what is held (its `earning` entries of the last `holdDays` days, by the
 * database's clock). Read without locks: a payout reads the balance under `lockDeveloperHeads`
 * and the held part with `heldEarningsMills` in the same transaction.
 */
const FUNDS = `SELECT (SELECT COALESCE(sum(balance_mills), 0) FROM developer_balances WHERE developer_id = $1)::text AS balance_mills,
       (SELECT COALESCE(sum(amount_mills), 0) FROM developer_ledger_entries
         WHERE developer_id = $1 AND kind = 'earning' AND created_at > now() - make_interval(days => $2::integer))::text AS held_mills`;

const HELD = `SELECT COALESCE(sum(amount_mills), 0)::text AS held_mills FROM developer_ledger_entries
   WHERE developer_id = $1 AND kind = 'earning' AND created_at > now() - make_interval(days => $2::integer)`;

export interface DeveloperFunds {
  balanceMills: number;
  heldMills: number;
}

export async function developerFunds(uow: UnitOfWork, developerId: string, holdDays: number): Promise<DeveloperFunds> {
  const row = await uow.one<{ balance_mills: string; held_mills: string }>(FUNDS, [developerId, holdDays]);
  return { balanceMills: Number(row?.balance_mills ?? 0), heldMills: Number(row?.held_mills ?? 0) };
}

/** The developer's earnings of the last `holdDays` days (inside a payout's transaction, after `lockDeveloperHeads`: no earning lands meanwhile). */
export async function heldEarningsMills(uow: UnitOfWork, developerId: string, holdDays: number): Promise<number> {
  const row = await uow.one<{ held_mills: string }>(HELD, [developerId, holdDays]);
  return Number(row?.held_mills ?? 0);
}
