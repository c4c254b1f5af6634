import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { decodeCursor, pageOf } from '../../http/keyset-cursor';
import { developerFunds, millsToUsd } from '../wallet';
import { PayoutsRepository } from './payouts.repository';
import { availableMills, PayoutMethodKind } from './payouts.rules';
import { methodView, PayoutMethodView, payoutView, PayoutView } from './payouts.views';
import type { PayoutRow } from './payouts.repository';

/** `GET /api/portal/balance` (CONTRACT §22). */
export interface BalanceView {
  currency: 'USD';
  balanceUsd: string;
  heldUsd: string;
  availableUsd: string;
  minimumPayoutUsd: string;
  payoutMethod: PayoutMethodView | null;
}

/** The developer's side of payouts: balance, payout method, and the payouts made. */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly payouts: PayoutsRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async balance(developerId: string): Promise<BalanceView> {
    const [funds, method] = await Promise.all([developerFunds(this.uow, developerId, this.config.payouts.holdDays), this.payouts.methodOf(developerId)]);
    return {
      currency: 'USD',
      balanceUsd: millsToUsd(funds.balanceMills),
      heldUsd: millsToUsd(funds.heldMills),
      availableUsd: millsToUsd(availableMills(funds.balanceMills, funds.heldMills)),
      minimumPayoutUsd: millsToUsd(this.config.payouts.minimumMills),
      payoutMethod: method && methodView(method.kind, method.accountId),
    };
  }

  /** Sets how the developer is paid from the next run on (payouts already made keep theirs). An account id with `sandbox` is not kept. */
  async setMethod(developerId: string, kind: PayoutMethodKind, accountId: string | undefined): Promise<{ payoutMethod: PayoutMethodView }> {
    const stored = kind === 'stripe' ? accountId! : null;
    await this.payouts.saveMethod(developerId, { kind, accountId: stored });
    return { payoutMethod: methodView(kind, stored) };
  }

  async list(developerId: string, options: { limit: number; cursor?: string }): Promise<{ payouts: PayoutView[]; nextCursor: string | null }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, ['timestamp', 'uuid'] as const);
    const rows = await this.payouts.ofDeveloper(developerId, options.limit + 1, after && { at: after[0], id: after[1] });
    const page = pageOf(rows, options.limit, (row) => [row.cursorAt, row.id]);
    return { payouts: page.rows.map(payoutView), nextCursor: page.nextCursor };
  }

  /** Every developer's payouts, newest first (the admin page), with the developer's display name. */
  async adminList(options: { limit: number; cursor?: string }): Promise<{ payouts: PayoutRow[]; nextCursor: string | null }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, ['timestamp', 'uuid'] as const);
    const rows = await this.payouts.all(options.limit + 1, after && { at: after[0], id: after[1] });
    const page = pageOf(rows, options.limit, (row) => [row.cursorAt, row.id]);
    return { payouts: page.rows, nextCursor: page.nextCursor };
  }
}
