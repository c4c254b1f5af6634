import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService } from '../audit';
import type { AuditActor } from '../audit';
import { appendToDeveloperLedger, developerFunds, heldEarningsMills, lockDeveloperHeads, millsToUsd } from '../wallet';
import { PayoutOutcomesService } from './payout-outcomes.service';
import { PayoutRow, PayoutsRepository } from './payouts.repository';
import { payoutDue } from './payouts.rules';

/**
 * How long a run waits for its Stripe transfers before it answers: at most 5 s, and never past 7 s
 * from its start (CONTRACT §16.29: a request answers within 10 s). Transfers still going finish in
 * the background and write their outcome; a run too big for the bound answers 503, carries on, and
 * the same key later answers the finished run.
 */
const TRANSFER_BUDGET_MS = 5000;
const ANSWER_BY_MS = 7000;
const RETRIES_PER_RUN = 100;

export interface RunResult {
  /** False when the key named a run that already existed (answered 200). */
  created: boolean;
  runId: string;
  payouts: PayoutRow[];
}

/**
 * `POST /api/admin/payout-runs` (CONTRACT §22). A run claims its idempotency key (the payout_runs
 * row), then pays each developer with a payout method in a transaction of its own: every shard
 * head locked (`lockDeveloperHeads`: the balance, no earning or void lands meanwhile), the held
 * earnings read, and, when what is available reaches the minimum, one pending payout of all of it
 * (floored to a cent) and its `payout` ledger entry. Two runs, or a run and a void, queue on the
 * heads: the later one reads the balance the earlier left, so nobody is ever paid more than
 * available. A developer gets at most one payout per run (payouts_run_developer_key).
 *
 * The run's audit entry (`payout.run`, listing its payouts) is written last, with the run's
 * `finished_at` in the same transaction. The
 * same key again answers the run as it stands; a run that stopped half-way (a crash) or is still
 * going is carried on by the repeat first, developer by developer as above, so it never pays
 * anyone twice. Stripe payouts are transferred after their transaction commits; the answer waits
 * for them a few seconds.
 */
@Injectable()
export class PayoutRunService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly payouts: PayoutsRepository,
    private readonly outcomes: PayoutOutcomesService,
    private readonly audit: AuditService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async run(actor: AuditActor, idempotencyKey: string): Promise<RunResult> {
    const started = Date.now();
    const newId = randomUUID();
    const created = await this.uow.run(() => this.payouts.claimRun(newId, idempotencyKey, actor.actorId));
    const existing = created ? undefined : await this.payouts.runByKey(idempotencyKey);
    const runId = existing?.id ?? newId;
    if (existing?.finished) return { created, runId, payouts: await this.payouts.ofRun(runId) };

    const transfers: Promise<void>[] = [];
    if (created) for (const earlier of await this.payouts.pendingStripe(runId, RETRIES_PER_RUN)) transfers.push(this.outcomes.transfer(earlier, { retry: true }));
    for (const developerId of await this.payouts.developersWithMethod()) {
      const payout = await this.payDeveloper(runId, developerId);
      // Committed: now the money may move.
      if (payout?.methodKind === 'stripe') transfers.push(this.outcomes.transfer(payout));
    }
    await this.uow.run(async () => {
      if (await this.payouts.lockRun(runId)) return;
      const made = await this.payouts.ofRun(runId);
      await this.audit.record({
        ...actor,
        action: 'payout.run',
        targetId: runId,
        details: {
          idempotencyKey,
          payouts: made.map((p) => ({ payoutId: p.id, developerId: p.developerId, amountUsd: millsToUsd(p.amountMills), method: p.methodKind })),
        },
      });
      await this.payouts.finishRun(runId);
    });
    await settledWithin(transfers, Math.max(0, Math.min(TRANSFER_BUDGET_MS, ANSWER_BY_MS - (Date.now() - started))));
    return { created, runId, payouts: await this.payouts.ofRun(runId) };
  }

  /**
   * One developer's payout of this run, in its own transaction, or null when none is due. A read
   * without locks first skips the many who are not due; the decision is made under the locks.
   */
  private async payDeveloper(runId: string, developerId: string): Promise<PayoutRow | null> {
    const { holdDays, minimumMills } = this.config.payouts;
    const glance = await developerFunds(this.uow, developerId, holdDays);
    if (payoutDue({ ...glance, minimumMills, hasMethod: true }) === 0) return null;
    return this.uow.run(async () => {
      const { balanceMills } = await lockDeveloperHeads(this.uow, developerId);
      if (await this.payouts.hasPayoutInRun(runId, developerId)) return null;
      const method = await this.payouts.methodOf(developerId);
      const heldMills = await heldEarningsMills(this.uow, developerId, holdDays);
      const amountMills = payoutDue({ balanceMills, heldMills, minimumMills, hasMethod: method !== null });
      if (amountMills === 0 || !method) return null;
      const id = randomUUID();
      await this.payouts.insert({ id, runId, developerId, amountMills, balanceBeforeMills: balanceMills, heldMills, methodKind: method.kind, methodAccountId: method.accountId });
      await appendToDeveloperLedger(this.uow, { developerId, kind: 'payout', amountMills: -amountMills, payoutId: id }, { balanceMills });
      return (await this.payouts.find(id))!;
    });
  }
}

/** Waits for the promises, at most `ms`; those still running carry on (their outcome is written when it comes). */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
