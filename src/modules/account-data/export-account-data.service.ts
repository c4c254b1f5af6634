import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { UnauthenticatedError } from '../../errors/app-error';
import { unlocksExport, type UnlockExport } from '../achievements';
import { developerExport, type DeveloperExport } from '../developer-portal';
import { accountExport, loginSessionsExport, playerExport, type AccountExport, type LoginSessionExport, type PlayerExport } from '../identity';
import { purchasesExport, type PurchaseExport } from '../payments';
import { payoutsExport, type PayoutsExport } from '../payouts';
import { playSessionsExport, type PlaySessionExport } from '../play-sessions';
import { RateLimiter } from '../rate-limits';
import { scoresExport, type ScoreExport } from '../scoring';
import { earningsExport, walletExport, type EarningExport, type WalletExport } from '../wallet';
import { webhooksExport, type WebhookExport } from '../webhooks';

/** `GET /api/me/export` (CONTRACT §20): everything the service keeps about the account, no secret and no hash. */
export interface AccountDataExport {
  exportedAt: Date;
  account: AccountExport;
  player: PlayerExport | null;
  wallet: WalletExport | null;
  purchases: PurchaseExport[];
  scores: ScoreExport[];
  achievements: UnlockExport[];
  playSessions: PlaySessionExport[];
  loginSessions: LoginSessionExport[];
  developer: (DeveloperExport & PayoutsExport & { earnings: EarningExport[]; webhooks: WebhookExport[] }) | null;
}

/**
 * A person's data export (CONTRACT §20): each part read by the module that owns its tables, all in
 * one read-only REPEATABLE READ transaction, so the parts agree with each other (a purchase
 * landing meanwhile is in both the purchases and the wallet, or in neither).
 */
@Injectable()
export class ExportAccountDataService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly limits: RateLimiter,
  ) {}

  async export(accountId: string): Promise<AccountDataExport> {
    await this.limits.consume({ throttler: 'export-per-account', tracker: accountId });
    return this.uow.run(async () => {
      await this.uow.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const exportedAt = (await this.uow.one<{ now: Date }>('SELECT now() AS now'))!.now;
      const account = await accountExport(this.uow, accountId);
      if (!account) throw new UnauthenticatedError('Sign in first.');
      const player = await playerExport(this.uow, accountId);
      const developer = await developerExport(this.uow, accountId);
      return {
        exportedAt,
        account,
        player,
        wallet: player ? await walletExport(this.uow, player.id) : null,
        purchases: await purchasesExport(this.uow, accountId),
        scores: player ? await scoresExport(this.uow, player.id) : [],
        achievements: player ? await unlocksExport(this.uow, player.id) : [],
        playSessions: player ? await playSessionsExport(this.uow, player.id) : [],
        loginSessions: await loginSessionsExport(this.uow, accountId),
        developer: developer && {
          ...developer,
          earnings: await earningsExport(this.uow, developer.id),
          ...(await payoutsExport(this.uow, developer.id)),
          webhooks: await webhooksExport(this.uow, developer.id),
        },
      };
    });
  }
}
