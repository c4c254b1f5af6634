import express, { NextFunction, Request, Response } from 'express';
import { PayloadTooLargeError } from '../../errors/app-error';
import { THUMBNAIL_MAX_BYTES } from './game-thumbnail.rules';

/** The route whose body is an image, not JSON (app.ts reads it with `thumbnailBody()` before the JSON parser). */
export const THUMBNAIL_UPLOAD_PATH = '/api/portal/games/:gameId/thumbnail';

/**
 * The body of `PUT /api/portal/games/{gameId}/thumbnail` as raw bytes (a Buffer in `req.body`),
 * whatever its media type: more than 2 MB is 413 before the route runs, as every body over its
 * limit is (CONTRACT §13, §17.2). The media type is judged by the route, after the caller and the
 * game are (401 and 404 first). Other methods on the path pass on to the JSON parser.
 */
export function thumbnailBody() {
  const read = express.raw({ limit: THUMBNAIL_MAX_BYTES, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'PUT') return next();
    read(req, res, (error?: unknown) => {
      if ((error as { type?: unknown } | undefined)?.type === 'entity.too.large') {
        return next(new PayloadTooLargeError('Thumbnail: the image is larger than 2 MB (2,097,152 bytes).'));
      }
      next(error);
    });
  };
}
