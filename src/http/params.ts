import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';

/**
 * Request rules shared by every context, declared once: ids, slugs, the idempotency key and
 * paging. Each `...Property()` carries its validators and its OpenAPI entry together; the
 * `...ParamsDto` classes are the path parameters several controllers share.
 */

/** Path and body ids are opaque strings of at most 64 characters (CONTRACT §16.3, §16.21). */
export const ID_MAX_LENGTH = 64;
export const ID_EXAMPLE = '3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d';
/** The OpenAPI entry of an id in an answer. */
export const ID_DOC = { example: ID_EXAMPLE, maxLength: ID_MAX_LENGTH };

export const SLUG_PATTERN = /^[a-z0-9-]+$/;
export const SLUG_MAX_LENGTH = 64;

/** Spec pattern of an idempotency key, 8 to 128 characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]+$/;

export const PAGE_LIMIT_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 50;

/** An opaque id: a string of at most 64 characters. */
export function IdProperty(description = 'Opaque id (at most 64 characters)', options: { optional?: boolean } = {}) {
  const doc = { description, ...ID_DOC };
  return applyDecorators(
    ...(options.optional ? [ApiPropertyOptional(doc), IsOptional()] : [ApiProperty(doc)]),
    IsString(),
    MaxLength(ID_MAX_LENGTH),
  );
}

/** A game slug: `^[a-z0-9-]+$`, 1 to 64 characters. */
export function SlugProperty(description = 'Game slug') {
  return applyDecorators(
    ApiProperty({ description, example: 'coin-clicker', pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX_LENGTH }),
    IsString(),
    Length(1, SLUG_MAX_LENGTH),
    Matches(SLUG_PATTERN, { message: `use lower-case letters, digits and -, up to ${SLUG_MAX_LENGTH}` }),
  );
}

/** The caller's idempotency key (CONTRACT §7). */
export function IdempotencyKeyProperty() {
  return applyDecorators(
    ApiProperty({
      description: 'Client-generated, unique per intended operation, reused only to retry it (8 to 128 characters)',
      example: 'b6f0c1f4-3a8e-4c1e-9e55-0d2f8a1b7c33',
      minLength: 8,
      maxLength: 128,
      pattern: IDEMPOTENCY_KEY_PATTERN.source,
    }),
    IsString(),
    Length(8, 128),
    Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'use 8 to 128 letters, digits, underscores, dots, colons or hyphens' }),
  );
}

/** `limit` of a paged list: an integer 1 to 100, default 50. */
export function PageLimitProperty() {
  return applyDecorators(
    ApiPropertyOptional({ description: 'Items per page, 1 to 100', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT, type: 'integer', example: 20 }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(PAGE_LIMIT_MAX),
  );
}

/** `cursor` of a paged list: the opaque `nextCursor` of the previous page. */
export function PageCursorProperty() {
  return applyDecorators(
    ApiPropertyOptional({ description: 'The nextCursor of the previous page (opaque)', maxLength: 512 }),
    IsOptional(),
    IsString(),
    MaxLength(512),
  );
}

export class PlaySessionIdParamsDto {
  @IdProperty('Play session id')
  id!: string;
}

export class InsertionIdParamsDto {
  @IdProperty('Insertion id from insert-coin')
  insertionId!: string;
}

export class SlugParamsDto {
  @SlugProperty()
  slug!: string;
}

export class UserIdParamsDto {
  @IdProperty('Account id (the `id` of a user)')
  userId!: string;
}

export class GameIdParamsDto {
  @IdProperty()
  gameId!: string;
}

export class VersionIdParamsDto {
  @IdProperty()
  versionId!: string;
}
