import express, { NextFunction, Request, Response } from 'express';
import { InvalidRequestError, UnsupportedMediaTypeError } from '../errors/app-error';

/** Objects and arrays inside one another, at most (CONTRACT §13). */
export const MAX_JSON_DEPTH = 32;

/** Keys that reach Object.prototype when a body is copied or merged by hand. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

/** The JSON media types (anything else with a body is 415). */
const JSON_TYPES = ['application/json', 'application/*+json'];

type Wellformed = string & { isWellFormed(): boolean };

/** Why a string cannot be stored or compared safely: U+0000 (PostgreSQL refuses it) or a lone surrogate. */
export function oddString(value: string): string | undefined {
  if (value.includes('\u0000')) return 'contains U+0000';
  if (!(value as Wellformed).isWellFormed()) return 'contains a lone surrogate';
  return undefined;
}

/**
 * The first reason a parsed JSON body is refused, or undefined: nested deeper than
 * MAX_JSON_DEPTH, U+0000 or a lone surrogate in a string or key, a `__proto__` or `constructor`
 * key. An explicit stack instead of recursion, so no body can exhaust the call stack.
 */
export function oddJson(root: unknown): string | undefined {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const odd = oddString(value);
      if (odd) return `A string in the body ${odd}.`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return `The body is nested deeper than ${MAX_JSON_DEPTH} levels.`;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return `The key "${key}" is not allowed.`;
      const odd = oddString(key);
      if (odd) return `A key in the body ${odd}.`;
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return undefined;
}

/** A body is present when one is announced: chunked, or a Content-Length other than 0. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The one body parser: JSON only (a non-empty body of another media type, or of none, is 415
 * UNSUPPORTED_MEDIA_TYPE rather than silently read as `{}`), at most `limit` bytes (413), and
 * nothing the database or the code behind could trip over (`oddJson`: 400 INVALID_REQUEST).
 * Parser errors reach the exception filter, which answers them without repeating the body.
 */
export function jsonBody(limit: number) {
  const parse = express.json({ limit, strict: true, type: JSON_TYPES });
  return (req: Request, res: Response, next: NextFunction): void => {
    // No body, or one a route's own parser already read (the payment webhooks take raw bytes).
    if (!hasBody(req) || req.readableEnded) return next();
    if (!req.is(JSON_TYPES)) return next(new UnsupportedMediaTypeError());
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      const odd = oddJson(req.body);
      next(odd ? new InvalidRequestError(odd) : undefined);
    });
  };
}
