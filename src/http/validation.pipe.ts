import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidRequestError } from '../errors/app-error';
import { MAX_DETAILS } from '../errors/all-exceptions.filter';
import { oddString } from './json-body';
import { describeValidationErrors, FieldProblem, validationMessage, ValueSource } from './validation-messages';

export type { FieldProblem };

/**
 * What the exception factory hands back: the raw errors, turned into words by `transform`, which
 * knows where the values came from (a body's unknown "field", a query's unknown "parameter").
 */
class ValidationFailure {
  constructor(readonly errors: ValidationError[]) {}
}

/** 400 INVALID_REQUEST whose `message` and `details[].problems` are sentences (CONTRACT §17.2); `field` stays the property path. */
function invalidRequest(errors: ValidationError[], metadata: ArgumentMetadata): InvalidRequestError {
  const source: ValueSource = metadata.type;
  const all = describeValidationErrors(errors, source, metadata.metatype);
  // Field names may be anything the caller made up (forbidNonWhitelisted): keep them short and few.
  const details = all.slice(0, MAX_DETAILS).map((d) => ({ field: clip(d.field, 64), problems: d.problems.slice(0, 5) }));
  return new InvalidRequestError(validationMessage(all), details);
}

/**
 * The one validation pipe: unknown properties are refused, values are transformed to the DTO's
 * types, and every failure is 400 INVALID_REQUEST with `details` naming the fields.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      // The target (its class holds the rules to put in words) and the value (absent: "is
      // required") are read by `invalidRequest`; neither ever reaches an answer.
      validationError: { target: true, value: true },
      exceptionFactory: (errors) => new ValidationFailure(errors),
    });
  }

  /** Valid path and query parameter sets already seen, per DTO class (null: too many to keep): see `transform`. */
  private readonly seen = new Map<unknown, Map<string, object> | null>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await this.check(value, metadata);
    } catch (error) {
      throw error instanceof ValidationFailure ? invalidRequest(error.errors, metadata) : error;
    }
  }

  private async check(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param' || metadata.type === 'query') refuseOddStrings(value, metadata.type);
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new InvalidRequestError('The request body must be a JSON object.');
      }
    }
    if ((metadata.type !== 'param' && metadata.type !== 'query') || !metadata.metatype) return super.transform(value, metadata);
    // Path and query parameters are a few strings, and for some routes the same ones come again and
    // again (a board's slug and period): a valid set's result is kept, so a repeat skips
    // class-transformer and class-validator (about 30 us of the 100 us a leaderboard read cost
    // beyond /health/live). Only valid sets are kept; each answer is a fresh copy. A DTO seen with
    // more distinct sets than MEMO_ENTRIES (ids) is no longer kept: churning entries would only
    // feed the garbage collector.
    let known = this.seen.get(metadata.metatype);
    // A DTO no longer kept (ids): no key to build.
    const key = known === null ? undefined : memoKey(value);
    if (key === undefined) return super.transform(value, metadata);
    const hit = known?.get(key);
    if (hit) return copy(hit);
    const result = await super.transform(value, metadata);
    if (isFlatObject(result)) {
      if (!known) this.seen.set(metadata.metatype, (known = new Map()));
      if (known.size >= MEMO_ENTRIES) this.seen.set(metadata.metatype, null);
      else known.set(key, copy(result));
    }
    return result;
  }
}

const MEMO_ENTRIES = 256;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A path or query value with U+0000 (PostgreSQL refuses it in text) is 400 before any DTO or handler sees it. */
function refuseOddStrings(value: unknown, where: 'param' | 'query'): void {
  if (typeof value === 'string') return refuseOddString(value, where);
  if (!value || typeof value !== 'object') return;
  // Each value, and the items of an array value (`?a=1&a=2`), without building a flattened copy: this runs on every request with a path id.
  for (const v of Object.values(value)) {
    if (Array.isArray(v)) for (const item of v) refuseOddString(item, where);
    else refuseOddString(v, where);
  }
}

function refuseOddString(value: unknown, where: 'param' | 'query'): void {
  const odd = typeof value === 'string' ? oddString(value) : undefined;
  if (odd) throw new InvalidRequestError(`A ${where === 'param' ? 'path' : 'query'} parameter ${odd}.`);
}

/** A key for a set of parameters of strings only, short enough to keep; undefined otherwise. */
function memoKey(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  let key = '';
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') return undefined;
    key += `${name.length}:${name}=${v.length}:${v};`;
  }
  return key.length <= 512 ? key : undefined;
}

function isFlatObject(value: unknown): value is object {
  return !!value && typeof value === 'object' && Object.values(value).every((v) => v === null || typeof v !== 'object');
}

function copy<T extends object>(value: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(value)) as T, value);
}
