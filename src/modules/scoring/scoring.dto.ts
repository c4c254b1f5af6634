import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IdempotencyKeyProperty, IdProperty } from '../../http/params';
import { MAX_SCORE } from './leaderboard.rules';

export class SubmitScoreDto {
  @ApiProperty({ description: 'The score, an integer within the game\'s maxScore', minimum: 0, maximum: MAX_SCORE, example: 12500 })
  @IsInt()
  @Min(0)
  @Max(MAX_SCORE)
  score!: number;

  @IdempotencyKeyProperty()
  idempotencyKey!: string;
}

export class SaveInitialsDto {
  @IdProperty('The scoreId of a score saved in this play session')
  scoreId!: string;

  @ApiProperty({ description: 'Three capital letters', pattern: '^[A-Z]{3}$', example: 'AAA' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'use three capital letters, A to Z' })
  initials!: string;
}

export class LeaderboardQueryDto {
  @ApiPropertyOptional({ description: '`all` (default) or `week` (since Monday 00:00 UTC of the current ISO week)', enum: ['all', 'week'], default: 'all' })
  @IsOptional()
  @IsIn(['all', 'week'])
  period?: 'all' | 'week';
}

export class MyScoresQueryDto {
  @ApiProperty({ description: 'Must be `true`: list the saved scores that still need initials', enum: ['true'] })
  @IsIn(['true'])
  pendingInitials!: 'true';
}

export class ScoreResultDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'null when not saved (test mode)', example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' })
  scoreId!: string | null;

  @ApiProperty({ description: 'false in test mode' })
  saved!: boolean;

  @ApiProperty()
  testMode!: boolean;

  @ApiProperty({ description: 'The score enters the all-time top ten (a tie with the tenth does not)' })
  qualifies!: boolean;

  @ApiProperty({ description: 'true when this is the stored answer to an earlier request with the same idempotencyKey' })
  replayed!: boolean;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 10, description: 'All-time rank when it qualifies, else null' })
  rank!: number | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[A-Z]{3}$', description: 'The player\'s saved initials, applied at once' })
  initials!: string | null;

  @ApiProperty({ description: 'true when the score qualifies, was saved and the player has no saved initials yet' })
  needsInitials!: boolean;
}

export class InitialsResultDto {
  @ApiProperty({ description: 'The score id' })
  id!: string;

  @ApiProperty({ pattern: '^[A-Z]{3}$', example: 'AAA' })
  initials!: string;
}

export class LeaderboardEntryDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 10 })
  rank!: number;

  @ApiProperty({ pattern: '^[A-Z]{3}$', example: 'AAA' })
  initials!: string;

  @ApiProperty({ pattern: '^\\d+$', description: 'The score as decimal digits (exact up to 9007199254740991)', example: '12500' })
  score!: string;

  @ApiProperty({ format: 'date-time' })
  achievedAt!: string;

  @ApiProperty({ description: 'true: submitted by the developer\'s server with a live key (trusted); false: reported by the player\'s browser' })
  verified!: boolean;
}

export class LeaderboardDto {
  @ApiProperty({ example: 'coin-clicker' })
  slug!: string;

  @ApiProperty({ enum: ['all', 'week'] })
  period!: 'all' | 'week';

  @ApiProperty({ type: [LeaderboardEntryDto], maxItems: 10, description: 'Score descending, then earlier achievedAt first' })
  scores!: LeaderboardEntryDto[];
}

export class PendingScoreDto {
  @ApiProperty()
  scoreId!: string;

  @ApiProperty({ description: 'The play session the score was saved in (the initials endpoint\'s path)' })
  sessionId!: string;

  @ApiProperty({ example: 'coin-clicker' })
  gameSlug!: string;

  @ApiProperty({ pattern: '^\\d+$', example: '12500' })
  score!: string;

  @ApiProperty({ format: 'date-time' })
  achievedAt!: string;
}

export class PendingScoresDto {
  @ApiProperty({ type: [PendingScoreDto] })
  scores!: PendingScoreDto[];
}

export class MyBestScoreDto {
  @ApiProperty({ pattern: '^\\d+$', description: 'The score as decimal digits (exact up to 9007199254740991)', example: '12500' })
  score!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: '^[A-Z]{3}$',
    example: 'AAA',
    description: 'Null while the score has no initials: it is then not on the board, and `rank` is the place it would take there',
  })
  initials!: string | null;

  @ApiProperty({ format: 'date-time' })
  achievedAt!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 27,
    description:
      "The score's place among all saved scores with initials of the period, not only the top ten: score descending, " +
      'ties by earlier achievedAt (no shared ranks)',
  })
  rank!: number;
}

export class MyBestDto {
  @ApiProperty({
    type: MyBestScoreDto,
    nullable: true,
    description: "The caller's best saved score of the period (removed scores excluded), with or without initials; null when none",
  })
  best!: MyBestScoreDto | null;
}
