import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { isPlainHost } from '../../http/host-name';
import { NoInvisibleCharacters } from '../../http/visible-text';
import { GameIdParamsDto, ID_DOC, IdProperty, SLUG_PATTERN, SlugProperty } from '../../http/params';
import { ACHIEVEMENT_KEY_PATTERN, ICON_KEYS } from './achievement-definitions.service';
import { MAX_SCORE_LIMIT } from './games.service';

const ID_RULE = { description: 'Opaque id (at most 64 characters)', ...ID_DOC };

/** A game's description: plain text of at most 2,000 characters (CONTRACT §17.2). */
export const DESCRIPTION_MAX_LENGTH = 2000;

/**
 * An absolute http(s) URL whose host is a real host name or an IP literal (ports allowed, no
 * user:password), or a path on this service beginning with a single `/`. The host reaches the
 * play page's CSP (frame-src), so nothing else may be in it.
 */
export function isEntryUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return false;
  if (value.startsWith('/')) return !value.startsWith('//') && !/[\s\\]/.test(value);
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && isPlainHost(url.hostname);
  } catch {
    return false;
  }
}

function IsEntryUrl() {
  return ValidateBy(
    { name: 'isEntryUrl', validator: { validate: isEntryUrl } },
    { message: 'use an http(s) address with a host name or IP address and no user or password, or a path starting with /' },
  );
}

export class CreateGameDto {
  @SlugProperty('Unique address of the game: /play/{slug}')
  slug!: string;

  @ApiProperty({ description: 'Title shown to players', example: 'Coin Clicker', minLength: 1, maxLength: 80 })
  @IsString()
  @Length(1, 80)
  title!: string;

  @ApiProperty({ description: 'Coins charged per credit', example: 2, minimum: 1, maximum: 5, type: 'integer' })
  @IsInt()
  @Min(1)
  @Max(5)
  coinsPerCredit!: number;

  // No `default` in the schema: generated clients would then require the field (issue 14).
  @ApiPropertyOptional({ description: `Highest accepted score (default ${MAX_SCORE_LIMIT})`, example: 1000000, minimum: 0, maximum: MAX_SCORE_LIMIT, type: 'integer' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SCORE_LIMIT)
  maxScore?: number;
}

export class UpdateGameDto {
  @ApiPropertyOptional({ description: 'Title shown to players', example: 'Coin Clicker Deluxe', minLength: 1, maxLength: 80 })
  @IsOptional()
  @IsString()
  @Length(1, 80)
  title?: string;

  @ApiPropertyOptional({ description: 'Coins charged per credit (running play sessions keep their price)', example: 3, minimum: 1, maximum: 5, type: 'integer' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  coinsPerCredit?: number;

  @ApiPropertyOptional({ description: 'Highest accepted score', example: 500000, minimum: 0, maximum: MAX_SCORE_LIMIT, type: 'integer' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SCORE_LIMIT)
  maxScore?: number;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: `What the game is, as plain text: shown with its line breaks, never as HTML. "" or null removes it`,
    example: 'Tap the coin as fast as you can.\nTen seconds a round.',
    maxLength: DESCRIPTION_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX_LENGTH)
  description?: string | null;
}

export class CreateVersionDto {
  @ApiProperty({ description: 'Version label', example: '1.0.0', minLength: 1, maxLength: 40 })
  @IsString()
  @Length(1, 40)
  label!: string;

  @ApiProperty({
    description:
      'Where the game build is served: an absolute http(s) URL (host: a host name or an IP address, ports allowed, no user:password; an internationalised name is read as punycode) or a path beginning with /',
    example: 'https://games.example.com/coin-clicker/1.0.0/index.html',
    maxLength: 2048,
  })
  @IsEntryUrl()
  entryUrl!: string;
}

export class PublishDto {
  @IdProperty('The approved version to publish')
  versionId!: string;
}

export class RejectVersionDto {
  @ApiPropertyOptional({ description: 'Why the version was rejected, at most 200 characters (as every reason the audit log keeps); shown to the developer', example: 'The game does not load.', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reason?: string;
}

export class GameDto {
  @ApiProperty(ID_RULE) gameId!: string;
  @ApiProperty({ example: 'coin-clicker', pattern: SLUG_PATTERN.source }) slug!: string;
  @ApiProperty({ example: 'Coin Clicker' }) title!: string;
  @ApiProperty({ type: 'string', nullable: true, maxLength: DESCRIPTION_MAX_LENGTH, description: 'Plain text (show it with its line breaks, never as HTML); null when none', example: 'Tap the coin as fast as you can.\nTen seconds a round.' }) description!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The 640 × 360 WebP thumbnail, a path on this service cached for a year; null when none', example: '/media/games/3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d/thumbnail-9c1e5b7a03d2f4e8.webp' }) thumbnailUrl!: string | null;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5, example: 2 }) coinsPerCredit!: number;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_SCORE_LIMIT, example: MAX_SCORE_LIMIT }) maxScore!: number;
  @ApiProperty({ enum: ['unpublished', 'published', 'suspended'] }) status!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The published version; null until one is published' }) currentVersionId!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

export class VersionDto {
  @ApiProperty(ID_RULE) versionId!: string;
  @ApiProperty({ example: '1.0.0' }) label!: string;
  @ApiProperty({ example: 'https://games.example.com/coin-clicker/1.0.0/index.html' }) entryUrl!: string;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected'] }) status!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

export class BecomeDeveloperDto {
  @ApiProperty({ description: 'Developer or studio name, none of its characters invisible', example: 'Pixel Forge', minLength: 1, maxLength: 64 })
  @IsString()
  @Length(1, 64)
  @Matches(/\S/, { message: 'use at least one character that is not a space' })
  @NoInvisibleCharacters({ emojiPresentation: true })
  displayName!: string;
}

export class DeveloperDto {
  @ApiProperty(ID_RULE) developerId!: string;
  @ApiProperty({ example: 'Pixel Forge' }) displayName!: string;
}

export class CreateApiKeyDto {
  @ApiProperty({ description: 'live keys may submit trusted scores; test keys only read', enum: ['live', 'test'], example: 'live' })
  @IsIn(['live', 'test'])
  kind!: 'live' | 'test';

  @ApiProperty({ description: 'A name to recognise the key by', example: 'production backend', minLength: 1, maxLength: 40 })
  @IsString()
  @Length(1, 40)
  name!: string;
}

export class ApiKeyIdParamsDto {
  @IdProperty()
  id!: string;
}

export class CreatedApiKeyDto {
  @ApiProperty(ID_RULE) id!: string;
  @ApiProperty({ enum: ['live', 'test'] }) kind!: string;
  @ApiProperty({ example: 'production backend' }) name!: string;
  @ApiProperty({ description: 'The full key, shown this once only', example: 'svc_live_0Hk2V9rP4mQ7sT1wX8yZ3aB6cD5eF0gH2iJ4kL6mN8o', pattern: '^svc_(live|test)_[A-Za-z0-9_-]{32,}$' }) key!: string;
  @ApiProperty({ description: 'The first 12 characters of the key', example: 'svc_live_0Hk' }) prefix!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

export class ApiKeyDto {
  @ApiProperty(ID_RULE) id!: string;
  @ApiProperty({ enum: ['live', 'test'] }) kind!: string;
  @ApiProperty({ example: 'production backend' }) name!: string;
  @ApiProperty({ description: 'The first 12 characters of the key', example: 'svc_live_0Hk' }) prefix!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'Last authenticated use (updated at most once a minute)' }) lastUsedAt!: Date | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) revokedAt!: Date | null;
}

const ICONS = [...ICON_KEYS];
const KEY_PATTERN = ACHIEVEMENT_KEY_PATTERN;
/** KEY_PATTERN in words, for the errors (CONTRACT §17.2). */
const ACHIEVEMENT_KEY_WORDS = 'use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit';
const KEY_RULE = { description: 'Achievement key: lower-case letters, digits, - and _, starting with a letter or digit', example: 'first-coin', pattern: KEY_PATTERN.source, minLength: 1, maxLength: 48 };

export class AchievementParamsDto extends GameIdParamsDto {
  @ApiProperty(KEY_RULE)
  @IsString()
  @Matches(KEY_PATTERN, { message: ACHIEVEMENT_KEY_WORDS })
  key!: string;
}

export class CreateAchievementDto {
  @ApiProperty({ ...KEY_RULE, description: `${KEY_RULE.description}; locked once a player has unlocked it` })
  @IsString()
  @Matches(KEY_PATTERN, { message: ACHIEVEMENT_KEY_WORDS })
  key!: string;

  @ApiProperty({ description: 'Name shown to players', example: 'First coin', minLength: 1, maxLength: 40 })
  @IsString()
  @Length(1, 40)
  name!: string;

  @ApiProperty({ description: 'What the player did', example: 'Insert your first coin.', maxLength: 160 })
  @IsString()
  @MaxLength(160)
  description!: string;

  @ApiProperty({ description: 'Icon', enum: ICONS, example: 'coin' })
  @IsIn(ICONS)
  iconKey!: string;

  @ApiPropertyOptional({ description: 'Hidden: shown as ??? on the game page until the player unlocks it (default false)', example: false })
  @IsOptional()
  @IsBoolean()
  secret?: boolean;
}

export class UpdateAchievementDto {
  @ApiPropertyOptional({ ...KEY_RULE, description: `${KEY_RULE.description}; cannot change once a player has unlocked it (409 ACHIEVEMENT_KEY_LOCKED)` })
  @IsOptional()
  @IsString()
  @Matches(KEY_PATTERN, { message: ACHIEVEMENT_KEY_WORDS })
  key?: string;

  @ApiPropertyOptional({ example: 'First coin', minLength: 1, maxLength: 40 })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  name?: string;

  @ApiPropertyOptional({ example: 'Insert your first coin.', maxLength: 160 })
  @IsOptional()
  @IsString()
  @MaxLength(160)
  description?: string;

  @ApiPropertyOptional({ enum: ICONS, example: 'coin' })
  @IsOptional()
  @IsIn(ICONS)
  iconKey?: string;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  secret?: boolean;
}

export class PortalAchievementDto {
  @ApiProperty({ example: 'first-coin', pattern: KEY_PATTERN.source }) key!: string;
  @ApiProperty({ example: 'First coin' }) name!: string;
  @ApiProperty({ example: 'Insert your first coin.' }) description!: string;
  @ApiProperty({ enum: ICONS, example: 'coin' }) iconKey!: string;
  @ApiProperty() secret!: boolean;
  @ApiProperty({ enum: ['active', 'retired'] }) status!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ description: 'How many distinct players unlocked it outside test mode; retiring keeps the count', example: 12, minimum: 0, type: 'integer' })
  unlockCount!: number;
}
