import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { InvalidRequestError } from '../errors/app-error';
import { isPlainHost } from '../http/host-name';
import { hostCsp } from '../http/html-page';
import { CATALOGUE_QUERY_MAX_LENGTH, CatalogueService } from '../modules/catalogue';
import { GamesService, thumbnailUrlOf } from '../modules/developer-portal';
import { CONFIG, Config } from '../config';
import { coinPacksOf, packView } from '../modules/payments';
import type { PackOnSale } from '../modules/payments';
import { CataloguePage, CatalogueView, GamePage, HostPage } from './arcade-pages';
import { sendPage, Viewer } from '../http/pages/layout';
import { CurrentViewer, OptionalViewer, Page, PageNotFound } from '../http/pages/page-auth';

const SLUG = /^[a-z0-9-]{1,64}$/;
const ID = /^[A-Za-z0-9-]{1,64}$/;
const SLUG_PARAM = { name: 'slug', description: 'The game slug', example: 'coin-clicker', schema: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 64 } } as const;

/** Games on one page of the catalogue. */
const CATALOGUE_PAGE = 24;

/**
 * The CSP source that lets the host page frame exactly the game's entry origin. A host refused
 * since (issue 26 item 11) but stored before frames nothing rather than reach the policy.
 */
function frameSource(entryUrl: string): string {
  if (entryUrl.startsWith('/')) return "'self'";
  const url = new URL(entryUrl);
  return isPlainHost(url.hostname) ? url.origin : "'none'";
}

/**
 * The arcade's pages for players: catalogue, game page with leaderboard and achievements, and the
 * host page that runs a game.
 */
@ApiTags('pages')
@Controller()
export class PagesController {
  private readonly packs: PackOnSale[];

  constructor(
    private readonly games: GamesService,
    private readonly catalogueGames: CatalogueService,
    @Inject(CONFIG) config: Config,
  ) {
    this.packs = coinPacksOf(config.coinPacks).map(packView);
  }

  @Get()
  @Page('anyone', {
    summary: 'The catalogue page (HTML)',
    description: 'Published games with their thumbnails, 24 a page ("More games" links the next), and the searchbox "Search games" (a GET form: `query`).',
  })
  @ApiQuery({ name: 'query', required: false, description: 'Only games whose title or slug contains this (1 to 100 characters, any case)', schema: { type: 'string', maxLength: 100 } })
  @ApiQuery({ name: 'cursor', required: false, description: 'The page after this one ("More games")', schema: { type: 'string', maxLength: 512 } })
  async catalogue(@OptionalViewer() viewer: Viewer | null, @Query('query') queryParam: unknown, @Query('cursor') cursorParam: unknown, @Res() res: Response): Promise<void> {
    sendPage(res, h(CataloguePage, { viewer, view: await this.catalogueView(queryParam, cursorParam) }));
  }

  /** The page's search as typed (trimmed), or none; a cursor that cannot be read starts from the first page. */
  private async catalogueView(queryParam: unknown, cursorParam: unknown): Promise<CatalogueView> {
    const typed = typeof queryParam === 'string' ? queryParam.trim() : '';
    const queryError = typed.length > CATALOGUE_QUERY_MAX_LENGTH ? `Search games: use at most ${CATALOGUE_QUERY_MAX_LENGTH} characters.` : null;
    const query = typed === '' || queryError ? undefined : typed;
    const cursor = typeof cursorParam === 'string' && cursorParam.length <= 512 ? cursorParam : undefined;
    let page;
    try {
      page = await this.catalogueGames.list(CATALOGUE_PAGE, cursor, query);
    } catch (error) {
      if (!(error instanceof InvalidRequestError) || cursor === undefined) throw error;
      page = await this.catalogueGames.list(CATALOGUE_PAGE, undefined, query);
    }
    const next = page.nextCursor === null ? null : new URLSearchParams({ ...(query ? { query } : {}), cursor: page.nextCursor });
    return { games: page.games, morePath: next ? `/?${next.toString()}` : null, query: typed.slice(0, CATALOGUE_QUERY_MAX_LENGTH * 2), queryError };
  }

  @Get('games/:slug')
  @Page('anyone', {
    summary: 'A game page (HTML): thumbnail and description, leaderboard (all time / this week) and achievements',
    description: 'Read by the page from GET /api/games/{slug} and GET /api/games/{slug}/scores; secret achievements are masked. Unknown or unpublished: the 404 page.',
  })
  @ApiParam(SLUG_PARAM)
  async game(@OptionalViewer() viewer: Viewer | null, @Param('slug') slug: string, @Res() res: Response): Promise<void> {
    const game = SLUG.test(slug) ? await this.games.findBySlug(slug) : undefined;
    if (!game || game.status !== 'published') throw new PageNotFound();
    sendPage(res, h(GamePage, { viewer, slug: game.slug, title: game.title, description: game.description || null, thumbnailUrl: thumbnailUrlOf(game) }));
  }

  @Get('play/:slug')
  @Page('signed-in', {
    summary: 'The host page (HTML) that runs a game',
    description:
      'Starts a play session (POST /api/play/sessions), embeds the game entry URL in `<iframe sandbox="allow-scripts">` and answers the SDK bridge ' +
      'by calling the player endpoints with the cookie. Owners and admins preview (a test-mode session) with `preview=1`, or a given version ' +
      'with `version={versionId}`; for anyone else both are ignored. A game this visitor cannot play: the 404 page.',
  })
  @ApiParam(SLUG_PARAM)
  @ApiQuery({ name: 'preview', required: false, enum: ['1', 'true'], description: 'Owner or admin: play a test-mode (preview) session' })
  @ApiQuery({ name: 'version', required: false, description: 'Owner or admin: preview this version of the game', schema: { type: 'string', maxLength: 64 } })
  async play(
    @CurrentViewer() viewer: Viewer,
    @Param('slug') slug: string,
    @Query('preview') previewParam: unknown,
    @Query('version') versionParam: unknown,
    @Res() res: Response,
  ): Promise<void> {
    if (!SLUG.test(slug)) throw new PageNotFound();
    const game = await this.games.findBySlug(slug);
    if (!game) throw new PageNotFound();

    // Owners and admins preview (CONTRACT §16.1, §17.1): unpublished games always, published ones on request.
    const owner = viewer.isAdmin || (viewer.developerId !== null && viewer.developerId === game.developerId);
    const namedVersion = typeof versionParam === 'string' && ID.test(versionParam) ? versionParam : undefined;
    const previewRequested = previewParam === '1' || previewParam === 'true' || namedVersion !== undefined;
    const published = game.status === 'published' && game.currentVersionId !== null;
    let version;
    let preview = false;
    if (published && !(owner && previewRequested)) {
      version = game.currentVersionId ? await this.games.findVersion(game.currentVersionId) : undefined;
    } else if (owner && namedVersion) {
      preview = true;
      version = await this.games.findVersion(namedVersion);
      if (version?.gameId !== game.id) throw new PageNotFound();
    } else if (owner) {
      preview = true;
      version = game.currentVersionId ? await this.games.findVersion(game.currentVersionId) : await this.games.newestPlayableVersion(game.id);
    }
    if (!version) throw new PageNotFound();
    sendPage(
      res,
      h(HostPage, {
        viewer,
        game: { slug: game.slug, title: game.title, description: game.description || null, entryUrl: version.entryUrl, preview, versionId: preview && namedVersion ? version.id : null },
        packs: this.packs,
      }),
      { csp: hostCsp(frameSource(version.entryUrl)) },
    );
  }
}
