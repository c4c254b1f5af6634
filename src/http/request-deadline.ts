import type { NextFunction, Request, Response } from 'express';
import { ServiceUnavailableError } from '../errors/app-error';
import { toFlatError } from '../errors/all-exceptions.filter';

/** No request is held longer than 10 seconds (CONTRACT §16.29): past 9 s it answers 503. */
export const REQUEST_DEADLINE_MS = 9000;

/**
 * The request bound as a plain timer, for the whole request (guards included). An rxjs interceptor
 * did this before, but any global interceptor makes Nest run every request through rxjs: about 4%
 * of the service's CPU under load (docs/performance.md). The work itself is bounded by the
 * database's statement timeout; this is the backstop. A handler that finishes after the deadline
 * finds the answer sent and its own reply is dropped (`deadlinePassed`, see the exception filter).
 */
export function requestDeadline(ms = REQUEST_DEADLINE_MS) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      res.locals.deadlinePassed = true;
      const { status, body, headers } = toFlatError(new ServiceUnavailableError('The request took too long; try again shortly.'));
      res.set(headers).status(status).json(body);
    }, ms);
    const done = (): void => clearTimeout(timer);
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}
