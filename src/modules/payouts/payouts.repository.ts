import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { cursorTimestamp } from '../../http/keyset-cursor';
import { Metrics } from '../../observability/metrics';
import type { PayoutMethodKind, PayoutStatus } from './payouts.rules';

/** A payout row as the API and the pages need it. */
export interface PayoutRow {
  id: string;
  runId: string;
  developerId: string;
  developerName: string;
  amountMills: number;
  status: PayoutStatus;
  methodKind: PayoutMethodKind;
  methodAccountId: string | null;
  reference: string | null;
  failureReason: string | null;
  createdAt: Date;
  paidAt: Date | null;
  failedAt: Date | null;
  /** The created_at as the cursor prints it. */
  cursorAt: string;
}

export interface PayoutMethodRow {
  kind: PayoutMethodKind;
  accountId: string | null;
}

export interface NewPayout {
  id: string;
  runId: string;
  developerId: string;
  amountMills: number;
  balanceBeforeMills: number;
  heldMills: number;
  methodKind: PayoutMethodKind;
  methodAccountId: string | null;
}

const COLUMNS = `p.id::text AS id, p.run_id::text AS run_id, p.developer_id::text AS developer_id, d.display_name AS developer_name,
  p.amount_mills::text AS amount_mills, p.status, p.method_kind, p.method_account_id, p.reference, p.failure_reason,
  p.created_at, p.paid_at, p.failed_at, ${cursorTimestamp('p.created_at')} AS cursor_at`;
const FROM = 'FROM payouts p JOIN developers d ON d.id = p.developer_id';

interface Row {
  id: string;
  run_id: string;
  developer_id: string;
  developer_name: string;
  amount_mills: string;
  status: PayoutStatus;
  method_kind: PayoutMethodKind;
  method_account_id: string | null;
  reference: string | null;
  failure_reason: string | null;
  created_at: Date;
  paid_at: Date | null;
  failed_at: Date | null;
  cursor_at: string;
}

function rowOf(r: Row): PayoutRow {
  return {
    id: r.id,
    runId: r.run_id,
    developerId: r.developer_id,
    developerName: r.developer_name,
    amountMills: Number(r.amount_mills),
    status: r.status,
    methodKind: r.method_kind,
    methodAccountId: r.method_account_id,
    reference: r.reference,
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    paidAt: r.paid_at,
    failedAt: r.failed_at,
    cursorAt: r.cursor_at,
  };
}

/** Every payout of a developer, oldest first (the data export, CONTRACT §20; a read, so a plain function like the other modules' exports). */
export async function payoutsOfDeveloper(uow: UnitOfWork, developerId: string): Promise<PayoutRow[]> {
  const rows = await uow.query<Row>(`SELECT ${COLUMNS} ${FROM} WHERE p.developer_id = $1 ORDER BY p.created_at, p.id`, [developerId]);
  return rows.map(rowOf);
}

/** payout_methods, payout_runs and payouts: only this repository writes them. */
@Injectable()
export class PayoutsRepository {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly metrics: Metrics,
  ) {}

  /** arcade_payouts_total: a payout counted once for every status it enters, after the commit (CONTRACT §23). */
  private entered(status: PayoutStatus): void {
    this.uow.afterCommit(() => this.metrics.payouts.inc({ status }));
  }

  async methodOf(developerId: string): Promise<PayoutMethodRow | null> {
    const row = await this.uow.one<{ kind: PayoutMethodKind; account_id: string | null }>('SELECT kind, account_id FROM payout_methods WHERE developer_id = $1', [developerId]);
    return row ? { kind: row.kind, accountId: row.account_id } : null;
  }

  async saveMethod(developerId: string, method: PayoutMethodRow): Promise<void> {
    await this.uow.query(
      `INSERT INTO payout_methods (developer_id, kind, account_id, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (developer_id) DO UPDATE SET kind = EXCLUDED.kind, account_id = EXCLUDED.account_id, updated_at = now()`,
      [developerId, method.kind, method.accountId],
    );
  }

  /** Developers with a payout method: the only ones a run may pay. */
  async developersWithMethod(): Promise<string[]> {
    const rows = await this.uow.query<{ developer_id: string }>('SELECT developer_id::text FROM payout_methods ORDER BY developer_id');
    return rows.map((r) => r.developer_id);
  }

  /** Claims the key: the new run's id, or null when a run already has this key. */
  async claimRun(id: string, idempotencyKey: string, requestedBy: string): Promise<boolean> {
    const rows = await this.uow.query(
      'INSERT INTO payout_runs (id, idempotency_key, requested_by) VALUES ($1, $2, $3) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id',
      [id, idempotencyKey, requestedBy],
    );
    return rows.length === 1;
  }

  async runByKey(idempotencyKey: string): Promise<{ id: string; finished: boolean } | undefined> {
    return this.uow.one<{ id: string; finished: boolean }>('SELECT id::text, finished_at IS NOT NULL AS finished FROM payout_runs WHERE idempotency_key = $1', [idempotencyKey]);
  }

  /** Locks the run's row until the transaction ends (one finisher writes its audit entry); true when it is already finished. */
  async lockRun(runId: string): Promise<boolean> {
    const row = await this.uow.one<{ finished: boolean }>('SELECT finished_at IS NOT NULL AS finished FROM payout_runs WHERE id = $1 FOR NO KEY UPDATE', [runId]);
    return row?.finished ?? false;
  }

  /** Marks the run finished (with its audit entry, under lockRun). */
  async finishRun(runId: string): Promise<void> {
    await this.uow.query('UPDATE payout_runs SET finished_at = now() WHERE id = $1 AND finished_at IS NULL', [runId]);
  }

  async hasPayoutInRun(runId: string, developerId: string): Promise<boolean> {
    return (await this.uow.query('SELECT 1 FROM payouts WHERE run_id = $1 AND developer_id = $2', [runId, developerId])).length > 0;
  }

  async insert(payout: NewPayout): Promise<void> {
    await this.uow.query(
      `INSERT INTO payouts (id, run_id, developer_id, amount_mills, balance_before_mills, held_mills, status, method_kind, method_account_id)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8)`,
      [payout.id, payout.runId, payout.developerId, payout.amountMills, payout.balanceBeforeMills, payout.heldMills, payout.methodKind, payout.methodAccountId],
    );
    this.entered('pending');
  }

  async find(id: string): Promise<PayoutRow | undefined> {
    const row = await this.uow.one<Row>(`SELECT ${COLUMNS} ${FROM} WHERE p.id = $1`, [id]);
    return row && rowOf(row);
  }

  /** The payout, its row locked until the transaction ends (mark-paid, fail and the Stripe outcome wait for each other). */
  async lock(id: string): Promise<PayoutRow | undefined> {
    const row = await this.uow.one<Row>(`SELECT ${COLUMNS} ${FROM} WHERE p.id = $1 FOR UPDATE OF p`, [id]);
    return row && rowOf(row);
  }

  async markPaid(id: string, reference: string): Promise<void> {
    const paid = await this.uow.query("UPDATE payouts SET status = 'paid', reference = $2, paid_at = now() WHERE id = $1 AND status = 'pending' RETURNING id", [id, reference]);
    if (paid.length > 0) this.entered('paid');
  }

  async markFailed(id: string, reason: string): Promise<void> {
    const failed = await this.uow.query("UPDATE payouts SET status = 'failed', failure_reason = $2, failed_at = now() WHERE id = $1 AND status = 'pending' RETURNING id", [id, reason]);
    if (failed.length > 0) this.entered('failed');
  }

  async ofRun(runId: string): Promise<PayoutRow[]> {
    const rows = await this.uow.query<Row>(`SELECT ${COLUMNS} ${FROM} WHERE p.run_id = $1 ORDER BY p.created_at, p.id`, [runId]);
    return rows.map(rowOf);
  }

  /** A developer's payouts, newest first, after the cursor's (created_at, id). */
  async ofDeveloper(developerId: string, limit: number, after?: { at: string; id: string }): Promise<PayoutRow[]> {
    const rows = after
      ? await this.uow.query<Row>(
          `SELECT ${COLUMNS} ${FROM} WHERE p.developer_id = $1 AND (p.created_at, p.id) < ($2::timestamptz, $3::uuid) ORDER BY p.created_at DESC, p.id DESC LIMIT $4`,
          [developerId, after.at, after.id, limit],
        )
      : await this.uow.query<Row>(`SELECT ${COLUMNS} ${FROM} WHERE p.developer_id = $1 ORDER BY p.created_at DESC, p.id DESC LIMIT $2`, [developerId, limit]);
    return rows.map(rowOf);
  }

  /** Every developer's payouts, newest first (the admin page). */
  async all(limit: number, after?: { at: string; id: string }): Promise<PayoutRow[]> {
    const rows = after
      ? await this.uow.query<Row>(`SELECT ${COLUMNS} ${FROM} WHERE (p.created_at, p.id) < ($1::timestamptz, $2::uuid) ORDER BY p.created_at DESC, p.id DESC LIMIT $3`, [after.at, after.id, limit])
      : await this.uow.query<Row>(`SELECT ${COLUMNS} ${FROM} ORDER BY p.created_at DESC, p.id DESC LIMIT $1`, [limit]);
    return rows.map(rowOf);
  }

  /** Stripe payouts of other runs still pending (their transfer's outcome unknown), oldest first: a new run asks Stripe about them again. */
  async pendingStripe(exceptRunId: string, limit: number): Promise<PayoutRow[]> {
    const rows = await this.uow.query<Row>(
      `SELECT ${COLUMNS} ${FROM} WHERE p.status = 'pending' AND p.method_kind = 'stripe' AND p.run_id <> $1 ORDER BY p.created_at LIMIT $2`,
      [exceptRunId, limit],
    );
    return rows.map(rowOf);
  }
}
