import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { PageCursorProperty, PageLimitProperty, SLUG_PATTERN } from '../../http/params';

/** Characters a catalogue search may have. */
export const CATALOGUE_QUERY_MAX_LENGTH = 100;

export class CatalogueQueryDto {
  @PageLimitProperty()
  limit?: number;

  @PageCursorProperty()
  cursor?: string;

  @ApiPropertyOptional({ description: 'Only games whose title or slug contains this text, whatever its case (% and _ are plain characters)', minLength: 1, maxLength: CATALOGUE_QUERY_MAX_LENGTH, example: 'coin' })
  @IsOptional()
  @IsString()
  @Length(1, CATALOGUE_QUERY_MAX_LENGTH)
  query?: string;
}

export class CatalogueGameDto {
  @ApiProperty({ example: 'coin-clicker', pattern: SLUG_PATTERN.source }) slug!: string;
  @ApiProperty({ example: 'Coin Clicker' }) title!: string;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5, example: 2 }) coinsPerCredit!: number;
  @ApiProperty({ type: 'string', nullable: true, maxLength: 2000, description: 'Plain text (show it with its line breaks, never as HTML); null when none', example: 'Tap the coin as fast as you can.\nTen seconds a round.' })
  description!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The 640 × 360 WebP thumbnail, a path on this service cached for a year; null when none', example: '/media/games/3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d/thumbnail-9c1e5b7a03d2f4e8.webp' })
  thumbnailUrl!: string | null;
}

export class CataloguePageDto {
  @ApiProperty({ type: CatalogueGameDto, isArray: true, description: 'Published games, newest first by first publication' })
  games!: CatalogueGameDto[];

  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null at the end' })
  nextCursor!: string | null;
}

export class PublicAchievementDto {
  @ApiProperty({ example: 'first-coin' }) key!: string;
  @ApiProperty({ description: '`???` for a secret achievement the caller has not unlocked', example: 'First coin' }) name!: string;
  @ApiProperty({ description: '`???` for a secret achievement the caller has not unlocked', example: 'Insert your first coin.' }) description!: string;
  @ApiProperty({ example: 'coin' }) iconKey!: string;
  @ApiProperty() secret!: boolean;
  @ApiProperty({ description: 'Whether the signed-in caller unlocked it (false for anonymous callers)' }) unlocked!: boolean;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) unlockedAt!: Date | null;
}

export class PublicGameDto extends CatalogueGameDto {
  @ApiProperty({ type: PublicAchievementDto, isArray: true, description: 'Active achievements in the developer\'s order' })
  achievements!: PublicAchievementDto[];
}
