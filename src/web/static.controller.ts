import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { NotFoundError } from '../errors/app-error';
import { parseVersionedName } from '../http/asset-path';
import { publicCache } from '../http/cache-policy';
import { Public } from '../http/public.decorator';
import { DEMO_GAME_CSP } from '../http/html-page';
import { Asset, WebAssetsService } from './web-assets.service';

/** The SDK may be loaded by any game, from any origin (games run in opaque-origin frames). */
function sendShared(res: Response, asset: Asset, cache: Parameters<typeof publicCache>[1]): void {
  res.setHeader('Content-Type', asset.contentType);
  publicCache(res, cache);
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.send(asset.body);
}

/** Static browser files: the SDK (spec §9), page scripts and styles, and the demo games. */
@ApiTags('sdk')
@Controller()
export class StaticController {
  constructor(private readonly assets: WebAssetsService) {}

  /** The latest 1.x: cached briefly so a new 1.x release reaches games soon. */
  @Get('sdk/v1.js')
  @Public()
  @ApiOperation({ summary: 'The game SDK, latest 1.x', description: 'Always the latest 1.x release (now 1.1.0). `Cache-Control: public, max-age=300`; loadable from any origin. See docs/sdk.md.' })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'The SDK bundle (defines window.ArcadeSDK, version 1.1.0)', content: { 'text/javascript': { schema: { type: 'string' } } } })
  sdkLatest(@Res() res: Response): void {
    sendShared(res, this.assets.bundle('sdk'), { maxAgeSeconds: 300 });
  }

  /** A fixed release never changes. */
  @Get('sdk/v1.1.0.js')
  @Public()
  @ApiOperation({ summary: 'The game SDK, release 1.1.0', description: 'A fixed release: `Cache-Control: public, max-age=31536000, immutable`; loadable from any origin.' })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'The SDK bundle (defines window.ArcadeSDK, version 1.1.0)', content: { 'text/javascript': { schema: { type: 'string' } } } })
  sdkPinned(@Res() res: Response): void {
    sendShared(res, this.assets.bundle('sdk'), 'immutable');
  }

  @Get('sdk/v1.d.ts')
  @Public()
  @ApiOperation({ summary: 'TypeScript declarations of the game SDK' })
  @ApiProduces('application/typescript')
  @ApiOkResponse({ description: 'Declarations of window.ArcadeSDK', content: { 'application/typescript': { schema: { type: 'string' } } } })
  sdkTypes(@Res() res: Response): void {
    sendShared(res, this.assets.file('/sdk/v1.d.ts')!, { maxAgeSeconds: 300 });
  }

  /**
   * Page scripts and the stylesheet. Pages link them by a path with their version
   * (`/assets/pages.<hash>.js`, see assetPath()), cached for a year; another version of that file
   * is gone (404). The plain path stays for pages rendered before a release, cached briefly.
   */
  @Get('assets/:name')
  @Public()
  @ApiExcludeEndpoint()
  asset(@Param('name') name: string, @Res() res: Response): void {
    const versioned = parseVersionedName(name);
    const asset = this.assets.pageAsset(versioned?.name ?? name);
    if (!asset || (versioned && versioned.version !== asset.version)) throw new NotFoundError('No such file.');
    res.setHeader('Content-Type', asset.contentType);
    publicCache(res, versioned ? 'immutable' : { maxAgeSeconds: 300 });
    res.send(asset.body);
  }

  /** Relative links in the game need the trailing slash. */
  @Get('demo-games/:game')
  @Public()
  @ApiExcludeEndpoint()
  demoGameIndex(@Param('game') game: string, @Req() req: Request, @Res() res: Response): void {
    if (!this.assets.file(`/demo-games/${game}/index.html`)) throw new NotFoundError('No such game.');
    if (!req.path.endsWith('/')) return res.redirect(301, `/demo-games/${encodeURIComponent(game)}/`);
    this.demoGameFile(game, 'index.html', res);
  }

  @Get('demo-games/:game/:file')
  @Public()
  @ApiExcludeEndpoint()
  demoGameFile(@Param('game') game: string, @Param('file') file: string, @Res() res: Response): void {
    const asset = this.assets.file(`/demo-games/${game}/${file}`);
    if (!asset) throw new NotFoundError('No such file.');
    res.setHeader('Content-Type', asset.contentType);
    publicCache(res, { maxAgeSeconds: 300 });
    // Framed by our host page (same origin); loaded from the game's opaque origin.
    res.setHeader('Content-Security-Policy', DEMO_GAME_CSP);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.send(asset.body);
  }
}
