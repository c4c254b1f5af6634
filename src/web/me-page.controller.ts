import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { InvalidRequestError } from '../errors/app-error';
import { AchievementsService } from '../modules/achievements';
import { PlayersService } from '../modules/identity';
import { packView } from '../modules/payments';
import { PurchasesService } from '../modules/payments';
import { WalletService } from '../modules/wallet';
import { sendPage, Viewer } from '../http/pages/layout';
import { CurrentViewer, Page, PageNotFound } from '../http/pages/page-auth';
import { MePage } from './me-page';

const ENTRY_ID = /^[0-9]{1,18}$/;

/** The signed-in account's own page. */
@ApiTags('accounts')
@Controller('me')
export class MePageController {
  constructor(
    private readonly players: PlayersService,
    private readonly wallets: WalletService,
    private readonly achievements: AchievementsService,
    private readonly purchases: PurchasesService,
  ) {}

  @Get()
  @Page('signed-in', {
    summary: 'The player\'s profile page (HTML)',
    description: 'Level, XP, balance and initials; wallet history 50 entries a page, newest first ("Older" pages back with `before`); achievements across games; purchases.',
  })
  @ApiQuery({ name: 'before', required: false, description: 'A wallet entry id: show the entries older than it', schema: { type: 'string', pattern: '^[0-9]{1,18}$' } })
  async me(@CurrentViewer() viewer: Viewer, @Query('before') before: unknown, @Res() res: Response): Promise<void> {
    if (before !== undefined && (typeof before !== 'string' || !ENTRY_ID.test(before))) throw new PageNotFound();
    // Name, e-mail and initials come with the login session; XP, the wallet and the unlocks at once.
    const [xp, wallet, achievements, { purchases }] = await Promise.all([
      viewer.playerId ? this.players.xp(viewer.playerId) : 0,
      viewer.walletId ? this.walletPage(viewer.walletId, before) : null,
      viewer.playerId ? this.achievements.unlockedBy(viewer.playerId) : [],
      this.purchases.list(viewer.accountId),
    ]);
    sendPage(res, h(MePage, { viewer, xp, wallet, olderPage: before !== undefined, achievements, purchases, packs: this.purchases.packs.map(packView) }));
  }

  /** One page of the wallet; an entry id that is not this wallet's answers the 404 page. */
  private async walletPage(walletId: string, before: string | undefined) {
    try {
      return await this.wallets.entries(walletId, { limit: 50, before });
    } catch (error) {
      if (error instanceof InvalidRequestError) throw new PageNotFound();
      throw error;
    }
  }
}
