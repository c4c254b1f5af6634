import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LeaderboardService, Period } from './leaderboard.service';

const BOARD_PATH = /^\/api\/games\/([a-z0-9-]{1,64})\/scores$/;
/** The only query strings answered here (a Map: `?constructor` must not find Object's prototype). */
const PERIODS = new Map<string, Period>([['', 'all'], ['period=all', 'all'], ['period=week', 'week']]);

/**
 * The public board's fast path: a `GET /api/games/{slug}/scores` whose board is in the cache (put
 * there by the controller within the last 500 ms) is answered here, with the bytes the controller
 * sent, before express matches routes and Nest runs its pipeline. Every other request — another
 * query string, HEAD, a cache miss — goes on to the controller, which validates it and fills the
 * cache. Security headers, the request id and the request log are set by the global middleware
 * that runs before this one. A cached board read cost 45-60 us of CPU more than `/health/live`
 * through the controller; here it costs about what `/health/live` does (docs/performance.md).
 */
@Injectable()
export class LeaderboardCacheMiddleware implements NestMiddleware {
  constructor(private readonly leaderboard: LeaderboardService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'GET') return next();
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const path = BOARD_PATH.exec(q === -1 ? url : url.slice(0, q));
    const period = PERIODS.get(q === -1 ? '' : url.slice(q + 1));
    const answer = path && period ? this.leaderboard.cachedAnswer(path[1], period) : undefined;
    if (!answer) return next();
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', answer.length);
    res.end(answer);
  }
}
