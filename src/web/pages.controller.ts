import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../http/public.decorator';
import { GamesService } from '../modules/developer-portal/games.service';
import { readAuthToken } from '../modules/identity/auth-cookie';
import { LoginSessionService } from '../modules/identity/login-session.service';
import { cataloguePage, gamePage, hostCsp, hostPage, messagePage, PAGE_CSP } from './web.html';

const SLUG = /^[a-z0-9-]{1,64}$/;

function sendPage(res: Response, status: number, html: string, csp = PAGE_CSP): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.send(html);
}

/** The CSP source that lets the host page frame exactly the game's entry origin. */
function frameSource(entryUrl: string): string {
  return entryUrl.startsWith('/') ? "'self'" : new URL(entryUrl).origin;
}

/**
 * The arcade's HTML pages: catalogue, game page with leaderboard and achievements, and the host
 * page that runs a game. Data comes from the public API in the browser; the host page alone is
 * rendered with the game's entry URL (CONTRACT §16.25).
 */
@ApiTags('pages')
@Controller()
export class PagesController {
  constructor(
    private readonly games: GamesService,
    private readonly loginSessions: LoginSessionService,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'The catalogue page (HTML)', description: 'Published games, read by the page from GET /api/games.' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } })
  catalogue(@Res() res: Response): void {
    sendPage(res, 200, cataloguePage());
  }

  @Get('games/:slug')
  @Public()
  @ApiOperation({ summary: 'A game page (HTML): leaderboard (all time / this week) and achievements', description: 'Read by the page from GET /api/games/{slug} and GET /api/games/{slug}/scores; secret achievements are masked.' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiParam({ name: 'slug', description: 'The game slug', example: 'coin-clicker', schema: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 64 } })
  @ApiNotFoundResponse({ description: 'No such published game (an HTML page)', content: { 'text/html': { schema: { type: 'string' } } } })
  async game(@Param('slug') slug: string, @Res() res: Response): Promise<void> {
    const game = SLUG.test(slug) ? await this.games.findBySlug(slug) : undefined;
    if (!game || game.status !== 'published') return sendPage(res, 404, messagePage('Game not found', 'There is no game at this address.'));
    sendPage(res, 200, gamePage(slug));
  }

  @Get('play/:slug')
  @Public()
  @ApiOperation({
    summary: 'The host page (HTML) that runs a game',
    description:
      'Starts a play session (POST /api/play/sessions), embeds the game entry URL in `<iframe sandbox="allow-scripts">` and answers the SDK bridge ' +
      'by calling the player endpoints with the cookie. Signed-out visitors are redirected to /auth/login?next=/play/{slug}.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiParam({ name: 'slug', description: 'The game slug', example: 'coin-clicker', schema: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 64 } })
  @ApiQuery({ name: 'preview', required: false, enum: ['1', 'true'], description: 'Owner or admin: play a test-mode (preview) session' })
  @ApiResponse({ status: 302, description: 'Not signed in: redirect to /auth/login?next=…', headers: { Location: { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ description: 'No such game, or not playable by this user (an HTML page)', content: { 'text/html': { schema: { type: 'string' } } } })
  async play(@Param('slug') slug: string, @Query('preview') previewParam: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const auth = await this.loginSessions.resolve(readAuthToken(req));
    if (!auth) return res.redirect(302, `/auth/login?next=${encodeURIComponent(req.originalUrl)}`);
    const unavailable = () => sendPage(res, 404, messagePage('Game not available', 'This game cannot be played right now.'));
    if (!SLUG.test(slug)) return unavailable();
    const game = await this.games.findBySlug(slug);
    if (!game) return unavailable();

    // Owners and admins preview (CONTRACT §16.1): unpublished games always, published ones on request.
    const owner = auth.isAdmin || (auth.developerId !== null && auth.developerId === game.developerId);
    const previewRequested = previewParam === '1' || previewParam === 'true';
    const published = game.status === 'published' && game.currentVersionId !== null;
    let version;
    let preview = false;
    if (published && !(owner && previewRequested)) {
      version = await this.games.findVersion(game.currentVersionId!);
    } else if (owner) {
      preview = true;
      version = game.currentVersionId ? await this.games.findVersion(game.currentVersionId) : await this.games.newestPlayableVersion(game.id);
    }
    if (!version) return unavailable();
    sendPage(res, 200, hostPage({ slug: game.slug, title: game.title, entryUrl: version.entryUrl, preview }), hostCsp(frameSource(version.entryUrl)));
  }
}
