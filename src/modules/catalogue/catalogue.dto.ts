import { ApiProperty } from '@nestjs/swagger';
import { PageCursorProperty, PageLimitProperty, SLUG_PATTERN } from '../../http/params';

export class CatalogueQueryDto {
  @PageLimitProperty()
  limit?: number;

  @PageCursorProperty()
  cursor?: string;
}

export class CatalogueGameDto {
  @ApiProperty({ example: 'coin-clicker', pattern: SLUG_PATTERN.source }) slug!: string;
  @ApiProperty({ example: 'Coin Clicker' }) title!: string;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5, example: 2 }) coinsPerCredit!: number;
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
