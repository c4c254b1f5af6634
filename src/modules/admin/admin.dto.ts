import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ID_DOC, IdProperty, PageCursorProperty, PageLimitProperty } from '../../http/params';
import { declaredEnum } from '../../http/openapi';
import { GameDto } from '../developer-portal';
import { AdminUserDto } from '../identity';

const ID_RULE = { description: 'Opaque id (at most 64 characters)', ...ID_DOC };

export class ScoreIdParamsDto {
  @IdProperty('Score id (the `scoreId` of a saved score)')
  scoreId!: string;
}

const REASON = { description: 'Why, for the audit log: 1 to 200 characters', example: 'Forged score from a modified client', minLength: 1, maxLength: 200 };

export class BanUserDto {
  @ApiProperty(REASON)
  @IsString()
  @Length(1, 200)
  reason!: string;
}

/** An optional reason (CONTRACT §17.2): what a destructive action's dialog asks, kept in the audit entry. */
const OPTIONAL_REASON = {
  description: 'Why, kept in the audit entry: 1 to 200 characters. Optional: leave it out (or send no body) for none',
  example: 'Copyright claim from the artist',
  minLength: 1,
  maxLength: 200,
};

export class SuspendGameDto {
  @ApiPropertyOptional(OPTIONAL_REASON)
  @IsOptional()
  @IsString()
  @Length(1, 200)
  reason?: string;
}

export class FreezeWalletDto {
  @ApiPropertyOptional({ ...OPTIONAL_REASON, example: 'Card reported stolen' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  reason?: string;
}

export class RemoveScoreDto {
  @ApiProperty(REASON)
  @IsString()
  @Length(1, 200)
  reason!: string;
}

/** Cursor paging shared by the admin listings. */
export class PageQueryDto {
  @PageCursorProperty()
  cursor?: string;

  @PageLimitProperty()
  limit?: number;
}

export class AdminVersionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Review status: pending (oldest first), approved or rejected (newest first)', enum: ['pending', 'approved', 'rejected'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'approved', 'rejected'])
  status?: 'pending' | 'approved' | 'rejected';
}

export class AdminGamesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Slug or title contains this (any case)', minLength: 1, maxLength: 100, example: 'clicker' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  query?: string;

  @ApiPropertyOptional({ description: 'Only games of this status', enum: ['unpublished', 'published', 'suspended'] })
  @IsOptional()
  @IsIn(['unpublished', 'published', 'suspended'])
  status?: 'unpublished' | 'published' | 'suspended';
}

export class AdminUsersQueryDto {
  @ApiProperty({ description: 'E-mail address starts with, or display name contains, this (any case)', minLength: 1, maxLength: 100, example: 'ada' })
  @IsString()
  @Length(1, 100)
  query!: string;
}

export class AdminScoresQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'all: every saved score; week: those achieved since Monday 00:00 UTC of this ISO week', enum: ['all', 'week'], default: 'all' })
  @IsOptional()
  @IsIn(['all', 'week'])
  period?: 'all' | 'week';
}

export class AuditQueryDto extends PageQueryDto {
  @IdProperty('Only entries of this acting user', { optional: true })
  actorId?: string;

  @IdProperty('Only entries about this user, version, game, key, score or insertion', { optional: true })
  targetId?: string;
}

const NEXT_CURSOR = { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null at the end' } as const;

export class ReviewVersionDto {
  @ApiProperty(ID_RULE) versionId!: string;
  @ApiProperty(ID_RULE) gameId!: string;
  @ApiProperty({ example: 'coin-clicker' }) gameSlug!: string;
  @ApiProperty({ example: 'Coin Clicker' }) gameTitle!: string;
  @ApiProperty({ example: '1.0.0' }) label!: string;
  @ApiProperty({ example: 'https://games.example.com/coin-clicker/1.0.0/index.html' }) entryUrl!: string;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected'] }) status!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The rejection reason; null unless rejected with one', example: null }) reason!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

export class ReviewPageDto {
  @ApiProperty({ type: ReviewVersionDto, isArray: true }) versions!: ReviewVersionDto[];
  @ApiProperty(NEXT_CURSOR) nextCursor!: string | null;
}

export class AdminGameDto extends GameDto {
  @ApiProperty({ ...ID_RULE, description: 'The developer who owns the game' }) developerId!: string;
  @ApiProperty({ example: 'Pixel Forge' }) developerName!: string;
}

export class AdminGamesPageDto {
  @ApiProperty({ type: AdminGameDto, isArray: true, description: 'Newest first' }) games!: AdminGameDto[];
  @ApiProperty(NEXT_CURSOR) nextCursor!: string | null;
}

export class AdminUsersDto {
  @ApiProperty({ type: AdminUserDto, isArray: true, description: 'The first 50 matches, by e-mail address' }) users!: AdminUserDto[];
}

export class AdminScoreDto {
  @ApiProperty(ID_RULE) scoreId!: string;
  @ApiProperty({ description: 'The score as a digit string, as on the boards', example: '12500', pattern: '^[0-9]+$' }) score!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Null until typed', example: 'ADA' }) initials!: string | null;
  @ApiProperty({ enum: ['player', 'trusted'] }) source!: string;
  @ApiProperty({ ...ID_RULE, description: 'The player\'s user (account) id' }) playerId!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) achievedAt!: Date;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When an admin removed it from the boards; null otherwise' }) removedAt!: Date | null;
}

export class AdminScoresPageDto {
  @ApiProperty({ type: AdminScoreDto, isArray: true, description: 'Best first (ties: earlier first), removed scores included' }) scores!: AdminScoreDto[];
  @ApiProperty(NEXT_CURSOR) nextCursor!: string | null;
}

export class RemovedScoreDto {
  @ApiProperty(ID_RULE) scoreId!: string;
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was first removed (a repeat answers the same)' }) removedAt!: Date;
}

export class AuditEntryDto {
  @ApiProperty({ description: 'Entry id', example: '1042' }) id!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) at!: Date;
  @ApiProperty({ ...ID_RULE, description: 'The acting user' }) actorId!: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'admin@example.com', description: 'Null once the actor erased their account' }) actorEmail!: string | null;
  @ApiProperty({ ...declaredEnum('auditActions'), example: 'user.ban' }) action!: string;
  @ApiProperty({ ...declaredEnum('auditTargets'), example: 'user' }) targetType!: string;
  @ApiProperty({ ...ID_RULE }) targetId!: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'Forged score from a modified client' }) reason!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What else the action needs to be read later (coins, the version\'s game...); never a secret', example: { coins: 20 } })
  details!: Record<string, unknown>;
  @ApiProperty({ type: 'string', nullable: true, description: 'The X-Request-Id of the answer that made the change' }) requestId!: string | null;
}

export class AuditPageDto {
  @ApiProperty({ type: AuditEntryDto, isArray: true, description: 'Newest first' }) entries!: AuditEntryDto[];
  @ApiProperty(NEXT_CURSOR) nextCursor!: string | null;
}
