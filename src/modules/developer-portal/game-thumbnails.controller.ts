import { Controller, Delete, Get, HttpCode, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { NotFoundError } from '../../errors/app-error';
import { CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { publicCache } from '../../http/cache-policy';
import { ApiErrors, ERROR_SCHEMA_REF } from '../../http/error-responses';
import { GameIdParamsDto } from '../../http/params';
import { Public } from '../../http/public.decorator';
import { hashOfFileName, THUMBNAIL_UPLOAD_TYPES } from './game-thumbnail.rules';
import { GameThumbnailsService } from './game-thumbnails.service';

class ThumbnailDto {
  @ApiProperty({ description: 'Where this service serves the stored image: a path on this service that names its bytes\' hash (cached for a year)', example: '/media/games/3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d/thumbnail-9c1e5b7a03d2f4e8.webp' })
  thumbnailUrl!: string;
}

const BINARY = { type: 'string', format: 'binary' } as const;
const UPLOAD_TYPES = [...THUMBNAIL_UPLOAD_TYPES];

/** The developer's side of a game's thumbnail (CONTRACT §17.2): upload and delete. */
@ApiTags('developer portal')
@Controller('api/portal/games')
export class GameThumbnailsController {
  constructor(private readonly thumbnails: GameThumbnailsService) {}

  @Put(':gameId/thumbnail')
  @DeveloperAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload the game\'s thumbnail',
    description:
      'The body is the image itself (PNG, JPEG or WebP, at most 2 MB = 2,097,152 bytes, at least 320 × 180 pixels as seen after its EXIF orientation). ' +
      'It is re-encoded once to a 640 × 360 WebP (cropped to fill, metadata dropped) that replaces the game\'s previous thumbnail.',
  })
  @ApiConsumes(...THUMBNAIL_UPLOAD_TYPES)
  @ApiBody({ description: 'The image bytes', schema: BINARY })
  @ApiOkResponse({ type: ThumbnailDto })
  @ApiErrors({
    400: 'INVALID_REQUEST: no body, not a readable PNG, JPEG or WebP image (whatever its Content-Type said), smaller than 320 × 180 pixels, or over 40 million pixels',
    404: 'NOT_FOUND: unknown game, or another developer\'s',
    413: 'PAYLOAD_TOO_LARGE: the image is over 2 MB (2,097,152 bytes)',
    415: 'UNSUPPORTED_MEDIA_TYPE: a Content-Type other than image/png, image/jpeg or image/webp',
  })
  @ApiResponse({
    status: 503,
    description: 'SERVICE_UNAVAILABLE: other uploads are being re-encoded on this instance, or the database is unreachable or the request took longer than 9 seconds; retry after `Retry-After` (1) seconds',
    schema: ERROR_SCHEMA_REF,
    headers: { 'Retry-After': { description: 'Seconds to wait: 1', schema: { type: 'integer', minimum: 1 } } },
  })
  upload(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto, @Req() req: Request): Promise<ThumbnailDto> {
    const bytes = Buffer.isBuffer(req.body) ? req.body : undefined;
    return this.thumbnails.upload(developer.developerId, params.gameId, { bytes, typeAccepted: Boolean(req.is(UPLOAD_TYPES)) });
  }

  @Delete(':gameId/thumbnail')
  @DeveloperAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the game\'s thumbnail', description: 'A game without one answers 204 too.' })
  @ApiResponse({ status: 204, description: 'The game has no thumbnail' })
  @ApiErrors({ 404: 'NOT_FOUND: unknown game, or another developer\'s' })
  async remove(@CurrentDeveloper() developer: DeveloperContext, @Param() params: GameIdParamsDto): Promise<void> {
    await this.thumbnails.remove(developer.developerId, params.gameId);
  }
}

/**
 * Thumbnails as anyone reads them: the stored bytes, never re-encoded, under an address that names
 * their hash, so browsers and caches keep them for a year and revalidate by ETag.
 */
@ApiTags('catalogue')
@Controller('media/games')
export class GameMediaController {
  constructor(private readonly thumbnails: GameThumbnailsService) {}

  @Get(':gameId/:file')
  @Public()
  @ApiOperation({
    summary: 'A game\'s thumbnail (640 × 360 WebP)',
    description:
      'The address a game\'s `thumbnailUrl` gives. `Cache-Control: public, max-age=31536000, immutable` and an ETag; loadable from any origin. ' +
      'An address replaced by a later upload, or removed, answers 404.',
  })
  @ApiParam({ name: 'gameId', description: 'The game id', schema: { type: 'string', maxLength: 64 } })
  @ApiParam({ name: 'file', description: '`thumbnail-{hash}.webp`', example: 'thumbnail-9c1e5b7a03d2f4e8.webp', schema: { type: 'string', pattern: '^thumbnail-[0-9a-f]{16}\\.webp$' } })
  @ApiOkResponse({ description: 'The image', content: { 'image/webp': { schema: BINARY } } })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match named its ETag)' })
  @ApiErrors({ 404: 'NOT_FOUND: no thumbnail at this address' })
  async thumbnail(@Param('gameId') gameId: string, @Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const hash = hashOfFileName(file);
    const image = hash === undefined ? undefined : await this.thumbnails.image(gameId, hash);
    if (!image) throw new NotFoundError('No thumbnail at this address.');
    const etag = `"${hash}"`;
    publicCache(res, 'immutable');
    res.setHeader('ETag', etag);
    // Public pictures: a developer's own site may show them (thumbnailUrl of GET /api/games).
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}`)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', 'image/webp');
    res.send(image);
  }
}
