import type { UnitOfWork } from '../../database/unit-of-work';
import { PayoutMethodRow, PayoutRow, payoutsOfDeveloper } from './payouts.repository';

/** A developer's payout method and payouts as a person's data export shows them (CONTRACT §20), amounts in mills like the earnings'. */
export interface PayoutsExport {
  payoutMethod: (PayoutMethodRow & { updatedAt: Date }) | null;
  payouts: Omit<PayoutRow, 'developerId' | 'developerName' | 'cursorAt'>[];
}

/** The export's payout method and payouts (oldest first) of a developer. */
export async function payoutsExport(uow: UnitOfWork, developerId: string): Promise<PayoutsExport> {
  const payoutMethod = await uow.one<NonNullable<PayoutsExport['payoutMethod']>>(
    'SELECT kind, account_id AS "accountId", updated_at AS "updatedAt" FROM payout_methods WHERE developer_id = $1',
    [developerId],
  );
  const payouts = (await payoutsOfDeveloper(uow, developerId)).map(({ developerId: _developer, developerName: _name, cursorAt: _cursor, ...payout }) => payout);
  return { payoutMethod: payoutMethod ?? null, payouts };
}
