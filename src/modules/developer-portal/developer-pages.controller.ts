import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { sendPage, Viewer } from '../../http/pages/layout';
import { CurrentDeveloperViewer, CurrentViewer, DeveloperViewer, Page, PageNotFound } from '../../http/pages/page-auth';
import { WalletService } from '../wallet';
import { AchievementDefinitionsService } from './achievement-definitions.service';
import { ApiKeysService } from './api-keys.service';
import { DeveloperGamePage } from './developer-game-page';
import { DeveloperGameRow, DeveloperHomePage } from './developer-home-page';
import { GamesService } from './games.service';
import { EarningsPage } from './earnings-page';
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
    private readonly definitions: AchievementDefinitionsService,
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

  @Get('games/:gameId')
  @Page('developer', {
    summary: 'One of the developer\'s games (HTML)',
    description: 'Settings, status and Unpublish; versions with Preview and Publish; achievements with their unlock counts, Edit and Retire. Another developer\'s or an unknown game: the 404 page.',
  })
  @ApiParam({ name: 'gameId', description: 'The game id', schema: { type: 'string', maxLength: 64 } })
  async gamePage(@CurrentDeveloperViewer() viewer: DeveloperViewer, @Param('gameId') gameId: string, @Res() res: Response): Promise<void> {
    if (gameId.length > 64) throw new PageNotFound();
    const game = await this.games.ownedGame(viewer.developerId, gameId);
    const [versions, achievements] = await Promise.all([this.games.versionsOf(game.id), this.definitions.list(viewer.developerId, game.id)]);
    sendPage(res, h(DeveloperGamePage, { viewer, game, versions, achievements }));
  }

  @Get('earnings')
  @Page('developer', {
    summary: 'The developer\'s earnings (HTML)',
    description: 'Every game\'s earnings (as GET /api/portal/earnings) and the last 30 days of earnedUsd as a chart and a table, for all games or the one chosen with `gameId`.',
  })
  @ApiQuery({ name: 'gameId', required: false, description: 'Show the days of this game (another developer\'s or an unknown game: the 404 page)', schema: { type: 'string', maxLength: 64 } })
  async earningsPage(@CurrentDeveloperViewer() viewer: DeveloperViewer, @Query('gameId') gameIdParam: unknown, @Res() res: Response): Promise<void> {
    if (gameIdParam !== undefined && (typeof gameIdParam !== 'string' || gameIdParam.length > 64)) throw new PageNotFound();
    const gameId = gameIdParam || null;
    const [games, report, daily] = await Promise.all([
      this.games.list(viewer.developerId),
      this.wallets.earnings(viewer.developerId),
      this.wallets.dailyEarnings(viewer.developerId, 30, gameId ?? undefined),
    ]);
    sendPage(res, h(EarningsPage, { viewer, games: games.map((game) => ({ gameId: game.gameId, title: game.title })), gameId, report, daily }));
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
