import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { sendPage, Viewer } from '../../web/layout/layout';
import { CurrentDeveloperViewer, CurrentViewer, DeveloperViewer, Page } from '../../web/layout/page-auth';
import { WalletService } from '../wallet/wallet.service';
import { ApiKeysService } from './api-keys.service';
import { DeveloperGameRow, DeveloperHomePage } from './developer-home-page';
import { GamesService } from './games.service';
import { KeysPage } from './keys-page';

/**
 * The developer portal's pages (CONTRACT §17). They read through the services; their forms call
 * the /api/portal endpoints with the cookie. Every page but /developer needs role developer.
 */
@ApiTags('developer portal')
@Controller('developer')
export class DeveloperPagesController {
  constructor(
    private readonly games: GamesService,
    private readonly keys: ApiKeysService,
    private readonly wallets: WalletService,
  ) {}

  @Get()
  @Page('signed-in', {
    summary: 'The developer portal (HTML)',
    description: 'A developer\'s games (status, current version, this month\'s earnings) and the "Create game" form; for other accounts, "Become a developer".',
  })
  async home(@CurrentViewer() viewer: Viewer, @Res() res: Response): Promise<void> {
    const games = viewer.developerId ? await this.overview(viewer.developerId) : [];
    sendPage(res, h(DeveloperHomePage, { viewer, games }));
  }

  @Get('keys')
  @Page('developer', { summary: 'The API key page (HTML)', description: 'Creates (the key shown once), lists and revokes API keys.' })
  async keysPage(@CurrentDeveloperViewer() viewer: DeveloperViewer, @Res() res: Response): Promise<void> {
    sendPage(res, h(KeysPage, { viewer, keys: await this.keys.list(viewer.developerId) }));
  }

  private async overview(developerId: string): Promise<DeveloperGameRow[]> {
    const [games, month] = await Promise.all([this.games.listWithCurrentVersion(developerId), this.wallets.earningsThisMonth(developerId)]);
    const earned = new Map(month.map((row) => [row.gameId, row.earnedUsd]));
    return games.map((game) => ({
      gameId: game.id,
      title: game.title,
      slug: game.slug,
      status: game.status,
      currentVersionLabel: game.currentVersionLabel,
      earnedThisMonthUsd: earned.get(game.id) ?? '0',
    }));
  }
}
